// The runtime core: initialization, per-thread state, the site table of the open computation
// event, record buffers, chunk flushing (zstd, checksummed), metadata, termination and fatal
// signals. See rt_internal.hpp for the discipline.
#define ZSTD_STATIC_LINKING_ONLY
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include <cstring>

#include "rt_internal.hpp"

namespace frt {

namespace key = firstrace::format::metadata_key;

__thread ThreadState* tls_state __attribute__((tls_model("initial-exec"))) = nullptr;
// Set once a thread has finished: instrumented code running after that is not traced.
static __thread bool tls_done __attribute__((tls_model("initial-exec"))) = false;

std::atomic<RtState> g_state{RtState::Uninit};
u32 g_stack_depth = 64;
std::atomic<u32> g_live_threads{0};
static std::atomic<u32> g_next_pid{0};
static std::atomic<bool> g_instrumented{false};
static std::atomic<bool> g_finalized{false};
static char g_dir[4096];
// The trace directory, opened once and checked (ours, not writable by others); every file in it
// is created through this descriptor, O_EXCL|O_NOFOLLOW: nothing planted there is followed or
// truncated (issue 13).
static int g_dir_fd = -1;
static int g_meta_fd = -1;
static bool g_announce = false; // print the trace path at exit (not under `firstrace record`)

// ---------------------------------------------------------------------------------------------
// Small freestanding helpers (no stdio, no malloc).

static void* map(std::size_t size) {
    void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? nullptr : p;
}

static bool write_all(int fd, const void* data, std::size_t n) {
    const char* p = static_cast<const char*>(data);
    while (n > 0) {
        const ssize_t w = ::write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        p += w;
        n -= static_cast<std::size_t>(w);
    }
    return true;
}

namespace {
// A fixed-size line builder for metadata and messages.
struct Line {
    char buf[4600];
    std::size_t n = 0;
    Line& s(const char* str) {
        while (*str && n + 1 < sizeof buf)
            buf[n++] = *str++;
        return *this;
    }
    Line& esc(const char* str, std::size_t len) {
        static const char hex[] = "0123456789abcdef";
        for (std::size_t i = 0; i < len && n + 4 < sizeof buf; ++i) {
            const auto c = static_cast<unsigned char>(str[i]);
            if (firstrace::format::needs_escape(c)) {
                buf[n++] = '%';
                buf[n++] = hex[c >> 4];
                buf[n++] = hex[c & 15];
            } else {
                buf[n++] = static_cast<char>(c);
            }
        }
        return *this;
    }
    Line& esc(const char* str) { return esc(str, std::strlen(str)); }
    Line& u(u64 v) {
        char tmp[24];
        int k = 0;
        do {
            tmp[k++] = static_cast<char>('0' + v % 10);
            v /= 10;
        } while (v);
        while (k && n + 1 < sizeof buf)
            buf[n++] = tmp[--k];
        return *this;
    }
    Line& i(i64 v) {
        if (v < 0) {
            s("-");
            return u(static_cast<u64>(-(v + 1)) + 1);
        }
        return u(static_cast<u64>(v));
    }
    Line& x(u64 v) {
        static const char hex[] = "0123456789abcdef";
        char tmp[20];
        int k = 0;
        do {
            tmp[k++] = hex[v & 15];
            v >>= 4;
        } while (v);
        while (k && n + 1 < sizeof buf)
            buf[n++] = tmp[--k];
        return *this;
    }
    const char* c_str() {
        buf[n] = 0;
        return buf;
    }
};
} // namespace

static void meta_line(Line& l) {
    if (g_meta_fd < 0) return;
    l.s("\n");
    write_all(g_meta_fd, l.buf, l.n);
}

static void message(const char* text) {
    Line l;
    l.s("firstrace: ").s(text).s("\n");
    write_all(2, l.buf, l.n);
}

u64 now() {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<u64>(ts.tv_sec) * 1000000000ull + static_cast<u64>(ts.tv_nsec);
}

// ---------------------------------------------------------------------------------------------
// Object table and thread map: open addressing over mmap'd arrays, insert by CAS on the key.

static constexpr u64 kObjTableSize = 1ull << 20;
static ObjEntry* g_objects = nullptr;
static ObjEntry g_overflow[16]; // when the table is full: one (over-ordering) object per class

static u64 hash64(u64 k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return k;
}

static u64 object_key(u8 cls, const void* addr) {
    return (static_cast<u64>(cls) << 56) ^ reinterpret_cast<u64>(addr) ^ (1ull << 63);
}

ObjEntry* object(u8 cls, const void* addr) {
    if (g_objects == nullptr) return &g_overflow[cls & 15];
    const u64 key = object_key(cls, addr);
    u64 i = hash64(key) & (kObjTableSize - 1);
    for (u32 probe = 0; probe < 4096; ++probe, i = (i + 1) & (kObjTableSize - 1)) {
        ObjEntry& e = g_objects[i];
        u64 k = e.key.load(std::memory_order_acquire);
        if (k == key) return &e;
        if (k == 0) {
            if (e.key.compare_exchange_strong(k, key, std::memory_order_acq_rel)) return &e;
            if (k == key) return &e;
        }
    }
    return &g_overflow[cls & 15];
}

ObjEntry* find_object(u8 cls, const void* addr) {
    if (g_objects == nullptr) return nullptr;
    const u64 key = object_key(cls, addr);
    u64 i = hash64(key) & (kObjTableSize - 1);
    for (u32 probe = 0; probe < 4096; ++probe, i = (i + 1) & (kObjTableSize - 1)) {
        const u64 k = g_objects[i].key.load(std::memory_order_acquire);
        if (k == key) return &g_objects[i];
        if (k == 0) return nullptr;
    }
    return nullptr;
}

static constexpr u64 kThreadMapSize = 1ull << 16;
struct ThreadMapEntry {
    std::atomic<u64> key;
    std::atomic<u32> pid;
};
static ThreadMapEntry* g_thread_map = nullptr;

void map_thread(u64 pthread_id, u32 pid) {
    if (g_thread_map == nullptr) return;
    const u64 key = pthread_id | 1ull << 63; // never 0
    u64 i = hash64(key) & (kThreadMapSize - 1);
    for (u32 probe = 0; probe < kThreadMapSize; ++probe, i = (i + 1) & (kThreadMapSize - 1)) {
        ThreadMapEntry& e = g_thread_map[i];
        u64 k = e.key.load(std::memory_order_acquire);
        if (k == 0 && !e.key.compare_exchange_strong(k, key)) {
            if (k != key) continue;
        } else if (k != 0 && k != key) {
            continue;
        }
        e.pid.store(pid, std::memory_order_release);
        return;
    }
}

u32 lookup_thread(u64 pthread_id) {
    if (g_thread_map == nullptr) return kNoPid;
    const u64 key = pthread_id | 1ull << 63;
    u64 i = hash64(key) & (kThreadMapSize - 1);
    for (u32 probe = 0; probe < kThreadMapSize; ++probe, i = (i + 1) & (kThreadMapSize - 1)) {
        const u64 k = g_thread_map[i].key.load(std::memory_order_acquire);
        if (k == key) return g_thread_map[i].pid.load(std::memory_order_acquire);
        if (k == 0) return kNoPid;
    }
    return kNoPid;
}

u32 new_pid() {
    return g_next_pid.fetch_add(1, std::memory_order_relaxed);
}

u32 new_pids(u32 count) {
    return g_next_pid.fetch_add(count, std::memory_order_relaxed);
}

// ---------------------------------------------------------------------------------------------
// Thread states: mmap'd once, recycled through a free list, registered for the exit flush.

static constexpr u32 kRegistrySize = 4096;
static std::atomic<ThreadState*> g_registry[kRegistrySize];
static std::atomic<u32> g_state_lock{0};
static ThreadState* g_free_states = nullptr;
static std::size_t g_cctx_size = 0;

static ThreadState* allocate_state() {
    spin_lock(g_state_lock);
    ThreadState* t = g_free_states;
    if (t) g_free_states = t->next_free;
    spin_unlock(g_state_lock);
    if (t) return t;
    const std::size_t zcap =
        ZSTD_compressBound(kBufferSize) + sizeof(firstrace::format::ChunkHeader);
    const std::size_t total = sizeof(ThreadState) + kTableSize * sizeof(Slot) +
                              kMaxSites * sizeof(Site) + kDepotSize * sizeof(DepotSlot) +
                              kArenaSize + kBufferSize + zcap + g_cctx_size + 4096 * 7;
    char* mem = static_cast<char*>(map(total));
    if (mem == nullptr) return nullptr;
    auto align = [](std::size_t v) { return (v + 63) & ~std::size_t{63}; };
    std::size_t off = align(sizeof(ThreadState));
    t = new (mem) ThreadState();
    t->table = reinterpret_cast<Slot*>(mem + off);
    off = align(off + kTableSize * sizeof(Slot));
    t->sites = reinterpret_cast<Site*>(mem + off);
    off = align(off + kMaxSites * sizeof(Site));
    t->depot = reinterpret_cast<DepotSlot*>(mem + off);
    off = align(off + kDepotSize * sizeof(DepotSlot));
    t->arena = mem + off;
    off = align(off + kArenaSize);
    t->buf = reinterpret_cast<unsigned char*>(mem + off);
    off = align(off + kBufferSize);
    t->zbuf = reinterpret_cast<unsigned char*>(mem + off);
    t->zcap = zcap;
    off = align(off + zcap);
    t->cctx = ZSTD_initStaticCCtx(mem + off, g_cctx_size);
    if (t->cctx == nullptr) return nullptr;
    ZSTD_CCtx_setParameter(static_cast<ZSTD_CCtx*>(t->cctx), ZSTD_c_compressionLevel, 1);
    return t;
}

static void release_state(ThreadState* t) {
    spin_lock(g_state_lock);
    t->next_free = g_free_states;
    g_free_states = t;
    spin_unlock(g_state_lock);
}

// Append helpers: the caller holds io_lock (t->appending).
static void flush_locked(ThreadState* t, std::size_t n);

static FRT_INLINE void reserve(ThreadState* t, std::size_t n) {
    if (t->len + n > kBufferSize) flush_locked(t, t->len);
}
static FRT_INLINE void put(ThreadState* t, u64 v) {
    reserve(t, 10);
    t->len = static_cast<std::size_t>(firstrace::format::put_varint(t->buf + t->len, v) - t->buf);
}
static FRT_INLINE void put_byte(ThreadState* t, u8 b) {
    reserve(t, 1);
    t->buf[t->len++] = b;
}

static bool begin_record(ThreadState* t) {
    if (t->fd < 0) return false;
    while (t->io_lock.exchange(1, std::memory_order_acquire) != 0)
        __builtin_ia32_pause();
    if (t->abandoned.load(std::memory_order_relaxed)) {
        t->io_lock.store(0, std::memory_order_release);
        return false;
    }
    t->appending = true;
    return true;
}
static void end_record(ThreadState* t) {
    t->committed.store(t->len, std::memory_order_release);
    t->appending = false;
    t->io_lock.store(0, std::memory_order_release);
}

// The first failed write of a stream (disk full, I/O error, file size limit): said at once on
// stderr and at the end in the metadata (`write-error`), so that `firstrace record` fails and
// the reader names the cause. The stream keeps the chunks written before and gets no more: a
// later chunk after a lost one would be out of sequence (issue 13).
static std::atomic<int> g_write_errno{0};
static std::atomic<u32> g_write_error_stream{0};

static void stream_write_failed(ThreadState* t, int error) {
    ::close(t->fd);
    t->fd = -1;
    int none = 0;
    if (!g_write_errno.compare_exchange_strong(none, error)) return;
    g_write_error_stream.store(t->thread_pid);
    Line l;
    l.s("cannot write the trace (").s(strerror(error)).s("): ").s(g_dir).s("/");
    l.s(firstrace::format::kStreamPrefix).u(t->thread_pid).s(firstrace::format::kStreamSuffix);
    l.s(" ends here");
    message(l.c_str());
}

// Compresses buf[0, n) into one chunk and writes it; keeps buf[n, len) for the next chunk.
static void write_chunk(ThreadState* t, std::size_t n) {
    using firstrace::format::ChunkHeader;
    if (n == 0 || t->fd < 0) return;
    t->in_flush = true;
    const std::size_t hs = sizeof(ChunkHeader);
    const std::size_t z = ZSTD_compressCCtx(static_cast<ZSTD_CCtx*>(t->cctx), t->zbuf + hs,
                                            t->zcap - hs, t->buf, n, 1);
    if (!ZSTD_isError(z)) {
        ChunkHeader h{};
        std::memcpy(h.magic, firstrace::format::kChunkMagic, 4);
        h.format_version = firstrace::format::kFormatVersion;
        h.header_size = hs;
        h.sequence = t->seq++;
        h.compressed_size = static_cast<u32>(z);
        h.raw_size = static_cast<u32>(n);
        h.checksum = firstrace::format::chunk_checksum(h, t->zbuf + hs, z);
        std::memcpy(t->zbuf, &h, hs);
        if (write_all(t->fd, t->zbuf, hs + z))
            t->bytes_written += hs + z;
        else
            stream_write_failed(t, errno);
    }
    t->in_flush = false;
}

static void flush_locked(ThreadState* t, std::size_t n) {
    write_chunk(t, n);
    std::memmove(t->buf, t->buf + n, t->len - n);
    t->len -= n;
    std::size_t c = t->committed.load(std::memory_order_relaxed);
    t->committed.store(c > n ? c - n : 0, std::memory_order_relaxed);
}

// ---------------------------------------------------------------------------------------------
// The open computation event.

static void reset_event(ThreadState* t, u64 clock) {
    t->nsites = 0;
    t->arena_used = 0;
    t->last_key = 0;
    t->last_site = nullptr;
    if (++t->gen == 0) { // wrapped: clear the table once every 2^32 events
        std::memset(t->table, 0, kTableSize * sizeof(Slot));
        t->gen = 1;
    }
    t->event_start = clock;
}

static void put_context(ThreadState* t, const u64* frames, u32 depth) {
    put(t, depth);
    for (u32 i = 0; i < depth; ++i)
        put(t, frames[i]);
}

static void put_current_context(ThreadState* t) {
    const u32 d = t->depth < kMaxStack ? t->depth : kMaxStack;
    const u32 k = d < kMaxContext ? d : kMaxContext;
    put_context(t, t->stack + (d - k), k);
}

// The stack depot id of the current calling context, writing a kRecStack record the first time
// this stream sees the stack (the innermost g_stack_depth frames). 0: no stack (depth 0, the
// depot is full, or the record could not be written).
static u32 intern_stack(ThreadState* t) {
    const u32 d = t->depth < kMaxStack ? t->depth : kMaxStack;
    if (d == 0 || g_stack_depth == 0) return 0;
    const u64 h = t->stack_hash;
    u32 i = static_cast<u32>((h * 0x9E3779B97F4A7C15ull) >> (64 - kDepotBits));
    for (u32 probe = 0; probe < kDepotSize; ++probe, i = (i + 1) & (kDepotSize - 1)) {
        DepotSlot& slot = t->depot[i];
        if (slot.gen == t->depot_gen) {
            if (slot.hash == h) return slot.id;
            continue;
        }
        if (t->depot_ids >= kDepotSize / 4 * 3) return 0; // full enough: stop interning
        if (!begin_record(t)) return 0;
        const u32 id = ++t->depot_ids;
        const u32 k = d < g_stack_depth ? d : g_stack_depth;
        put_byte(t, firstrace::format::kRecStack);
        put(t, id);
        put_context(t, t->stack + (d - k), k);
        end_record(t);
        slot.hash = h;
        slot.id = id;
        slot.gen = t->depot_gen;
        return id;
    }
    return 0;
}

void close_computation(ThreadState* t, u64 clock) {
    if (t->nsites != 0 && begin_record(t)) {
        put_byte(t, firstrace::format::kRecComputeStacks);
        put(t, t->event_start);
        put(t, clock >= t->event_start ? clock - t->event_start : 0);
        put_context(t, t->ctx, t->ctx_depth);
        put(t, t->nsites);
        for (u32 i = 0; i < t->nsites; ++i) {
            const Site& s = t->sites[i];
            put(t, s.pc);
            put(t, s.stack);
            put_byte(t, s.flags);
            put(t, s.n);
            u64 prev = 0;
            for (u32 j = 0; j < s.n; ++j) {
                put(t, s.r[j].lo - prev);
                put(t, s.r[j].hi - s.r[j].lo);
                prev = s.r[j].hi;
            }
        }
        end_record(t);
    }
    reset_event(t, clock);
}

static Range* arena_ranges(ThreadState* t, u32 count) {
    const std::size_t bytes = count * sizeof(Range);
    if (t->arena_used + bytes > kArenaSize) return nullptr;
    Range* r = reinterpret_cast<Range*>(t->arena + t->arena_used);
    t->arena_used += bytes;
    return r;
}

static Site* find_site(ThreadState* t, u64 key, u64 pc, u8 flags) {
    u32 i = slot_index(key);
    for (;; i = (i + 1) & (kTableSize - 1)) {
        Slot& s = t->table[i];
        if (s.gen != t->gen) {
            if (t->nsites >= kMaxSites) return nullptr;
            Range* r = arena_ranges(t, 4);
            if (r == nullptr) return nullptr;
            if (t->nsites == 0) { // first access of the event: snapshot its calling context
                const u32 d = t->depth < kMaxStack ? t->depth : kMaxStack;
                const u32 k = d < kMaxContext ? d : kMaxContext;
                std::memcpy(t->ctx, t->stack + (d - k), k * sizeof(u64));
                t->ctx_depth = k;
            }
            s.key = key;
            s.gen = t->gen;
            s.site = t->nsites;
            Site& site = t->sites[t->nsites++];
            site.pc = pc;
            site.stack = intern_stack(t);
            site.flags = flags;
            site.n = 0;
            site.cap = 4;
            site.last = 0;
            site.r = r;
            return &site;
        }
        if (s.key == key) return &t->sites[s.site];
    }
}

// Inserts [lo, hi) into the sorted disjoint ranges of s, merging overlapping and adjacent
// ones. Returns false when the arena is full.
static bool insert_range(ThreadState* t, Site* s, u64 lo, u64 hi) {
    Range* r = s->r;
    u32 n = s->n;
    // first index whose hi >= lo (candidates to merge start there)
    u32 a = 0, b = n;
    if (n != 0 && r[s->last].hi < lo) a = s->last + 1;
    while (a < b) {
        const u32 m = (a + b) / 2;
        if (r[m].hi < lo)
            a = m + 1;
        else
            b = m;
    }
    if (a < n && r[a].lo <= hi) { // overlaps or touches r[a]: merge forward
        if (lo < r[a].lo) r[a].lo = lo;
        if (hi > r[a].hi) r[a].hi = hi;
        u32 e = a + 1;
        while (e < n && r[e].lo <= r[a].hi) {
            if (r[e].hi > r[a].hi) r[a].hi = r[e].hi;
            ++e;
        }
        if (e != a + 1) {
            std::memmove(r + a + 1, r + e, (n - e) * sizeof(Range));
            s->n = n - (e - a - 1);
        }
        s->last = a;
        return true;
    }
    if (n == s->cap) {
        Range* bigger = arena_ranges(t, s->cap * 2);
        if (bigger == nullptr) return false;
        std::memcpy(bigger, r, n * sizeof(Range));
        s->r = r = bigger;
        s->cap *= 2;
    }
    std::memmove(r + a + 1, r + a, (n - a) * sizeof(Range));
    r[a] = Range{lo, hi};
    s->n = n + 1;
    s->last = a;
    return true;
}

void periodic(ThreadState* t) {
    t->budget = kBudget;
    const u64 c = now();
    if (c - t->event_start > kSplitAfterNs) close_computation(t, c);
}

void add_access_slow(ThreadState* t, u64 pc, u64 addr, u64 size, u8 flags) {
    if (size == 0) return;
    // Annotated ignore regions: never enter the site table, so the fast path never sees the
    // site either (rt_annotations.cpp closes the event when the region begins).
    if (FRT_UNLIKELY(t->ignore_access_kinds & flags)) return;
    const u64 key = site_key(t, pc, flags);
    for (int attempt = 0; attempt < 2; ++attempt) {
        Site* s =
            (t->last_key == key && t->last_site) ? t->last_site : find_site(t, key, pc, flags);
        if (s != nullptr && insert_range(t, s, addr, addr + size)) {
            t->last_key = key;
            t->last_site = s;
            return;
        }
        // The event is full: split it here (any split of a computation event is legal).
        close_computation(t, now());
    }
}

// ---------------------------------------------------------------------------------------------
// Synchronization events.

void emit_sync(ThreadState* t, const SyncRecord& r) {
    if (t->ignore_sync_depth == 0 && begin_record(t)) {
        put_byte(t, firstrace::format::kRecSync);
        put_byte(t, r.op);
        put_byte(t, r.cls);
        put(t, r.object);
        put(t, r.incarnation);
        put(t, r.counter);
        put(t, r.clock_start);
        put(t, r.clock_finish >= r.clock_start ? r.clock_finish - r.clock_start : 0);
        put(t, r.pc);
        put_current_context(t);
        put(t, firstrace::format::zigzag(r.extra));
        end_record(t);
    }
    reset_event(t, r.clock_finish);
}

void emit_name(ThreadState* t, u32 pid, const char* name) {
    std::size_t n = 0;
    while (n < 64 && name[n] != 0)
        ++n;
    if (begin_record(t)) {
        put_byte(t, firstrace::format::kRecName);
        put(t, pid);
        put(t, n);
        for (std::size_t i = 0; i < n; ++i)
            put_byte(t, static_cast<u8>(name[i]));
        end_record(t);
    }
}

void emit_alloc(ThreadState* t, u64 address, u64 size, u64 pc) {
    if (begin_record(t)) {
        put_byte(t, firstrace::format::kRecAlloc);
        put(t, address);
        put(t, size);
        put(t, pc);
        put_current_context(t);
        end_record(t);
    }
}

void emit_benign(ThreadState* t, u64 address, u64 size) {
    if (begin_record(t)) {
        put_byte(t, firstrace::format::kRecBenign);
        put(t, address);
        put(t, size);
        end_record(t);
    }
}

void emit_process(ThreadState* t, u32 pid, u32 parent, u8 kind) {
    close_computation(t, now());
    if (begin_record(t)) {
        put_byte(t, firstrace::format::kRecProcess);
        put(t, pid);
        put(t, parent == kNoPid ? 0 : u64{parent} + 1);
        put_byte(t, kind);
        put(t, static_cast<u64>(t->os_tid));
        end_record(t);
    }
    t->pid = pid;
}

void emit_switch(ThreadState* t, u32 pid) {
    if (t->pid == pid) return;
    close_computation(t, now());
    if (begin_record(t)) {
        put_byte(t, firstrace::format::kRecSwitch);
        put(t, pid);
        end_record(t);
    }
    t->pid = pid;
}

void emit_end(ThreadState* t, u64 clock) {
    close_computation(t, clock);
    if (begin_record(t)) {
        put_byte(t, firstrace::format::kRecEnd);
        put(t, clock);
        end_record(t);
    }
}

void emit_varints(ThreadState* t, u8 type, const u64* values, u32 count) {
    if (begin_record(t)) {
        put_byte(t, type);
        for (u32 i = 0; i < count; ++i)
            put(t, values[i]);
        end_record(t);
    }
}

// ---------------------------------------------------------------------------------------------
// Thread life cycle.

static bool open_stream(ThreadState* t) {
    Line l;
    l.s(firstrace::format::kStreamPrefix).u(t->pid).s(firstrace::format::kStreamSuffix);
    t->fd =
        ::openat(g_dir_fd, l.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    return t->fd >= 0;
}

static ThreadState* create_state(u32 pid, u32 parent) {
    ThreadState* t = allocate_state();
    if (t == nullptr) return nullptr;
    t->guard = 1;
    // t->gen keeps counting across recycled uses: stale table slots must stay invalid
    t->depth = 0;
    t->stack_hash = 0;
    t->stack_hashes[0] = 0;
    if (++t->depot_gen == 0) { // wrapped: clear the depot once every 2^32 thread states
        std::memset(t->depot, 0, kDepotSize * sizeof(DepotSlot));
        t->depot_gen = 1;
    }
    t->depot_ids = 0;
    t->pid = pid;
    t->thread_pid = pid;
    t->parent = parent;
    t->os_tid = static_cast<int>(syscall(SYS_gettid));
    t->ended = false;
    t->io_lock.store(0);
    t->abandoned.store(false);
    t->appending = false;
    t->in_flush = false;
    t->len = 0;
    t->committed.store(0);
    t->seq = 0;
    t->bytes_written = 0;
    t->acq_obj = nullptr;
    t->acq_stamp = 0;
    t->ignore_access_kinds = 0;
    t->ignore_reads_depth = t->ignore_writes_depth = t->ignore_sync_depth = 0;
    t->ctx_depth = 0;
    t->budget = kBudget;
    reset_event(t, now());
    if (!open_stream(t)) {
        release_state(t);
        return nullptr;
    }
    t->registry_slot = kRegistrySize;
    for (u32 i = 0; i < kRegistrySize; ++i) {
        ThreadState* expected = nullptr;
        if (g_registry[i].compare_exchange_strong(expected, t)) {
            t->registry_slot = i;
            break;
        }
    }
    g_live_threads.fetch_add(1, std::memory_order_relaxed);
    if (begin_record(t)) {
        put_byte(t, firstrace::format::kRecProcess);
        put(t, pid);
        put(t, parent == kNoPid ? 0 : u64{parent} + 1);
        put_byte(t, firstrace::format::kProcThread);
        put(t, static_cast<u64>(t->os_tid));
        end_record(t);
    }
    t->guard = 0;
    return t;
}

ThreadState* attach_thread() {
    if (tls_done) return nullptr;
    RtState s = g_state.load(std::memory_order_acquire);
    if (s == RtState::Uninit) {
        ensure_init();
        s = g_state.load(std::memory_order_acquire);
    }
    if (s != RtState::Ready) return nullptr;
    // A thread we did not see created (created before initialization or from inside libc).
    tls_done = true; // no recursion while creating
    ThreadState* t = create_state(new_pid(), kNoPid);
    tls_state = t;
    tls_done = t == nullptr;
    return t;
}

void thread_started(u32 pid, u32 parent) {
    if (g_state.load(std::memory_order_acquire) != RtState::Ready) return;
    tls_done = true;
    ThreadState* t = create_state(pid, parent);
    tls_state = t;
    tls_done = t == nullptr;
}

static void flush_all_own(ThreadState* t) {
    if (begin_record(t)) {
        flush_locked(t, t->len);
        t->appending = false;
        t->io_lock.store(0, std::memory_order_release);
    }
}

void thread_finish(ThreadState* t) {
    if (t->ended) return;
    t->guard = 1;
    const u64 c = now();
    emit_switch(t, t->thread_pid); // an OpenMP task may have been current
    emit_end(t, c);
    flush_all_own(t);
    t->ended = true;
    // Leave the registry under io_lock so that an exit flush does not see a half-released state.
    while (t->io_lock.exchange(1, std::memory_order_acquire) != 0)
        __builtin_ia32_pause();
    if (t->registry_slot < kRegistrySize) g_registry[t->registry_slot].store(nullptr);
    if (t->fd >= 0) ::close(t->fd);
    t->fd = -1;
    t->io_lock.store(0, std::memory_order_release);
    g_live_threads.fetch_sub(1, std::memory_order_relaxed);
    tls_state = nullptr;
    tls_done = true;
    release_state(t);
}

// ---------------------------------------------------------------------------------------------
// Initialization.

static void install_exit_flush_handler(); // with finalize()

static int module_callback(struct dl_phdr_info* info, size_t, void*) {
    const char* name = info->dlpi_name;
    char exe[4096];
    if (name == nullptr || name[0] == 0) {
        const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n <= 0) return 0;
        exe[n] = 0;
        name = exe;
    }
    if (std::strncmp(name, "linux-vdso", 10) == 0) return 0;
    u64 lo = ~0ull, hi = 0;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const auto& ph = info->dlpi_phdr[i];
        if (ph.p_type != PT_LOAD) continue;
        const u64 a = info->dlpi_addr + ph.p_vaddr;
        if (a < lo) lo = a;
        if (a + ph.p_memsz > hi) hi = a + ph.p_memsz;
    }
    if (hi == 0) return 0;
    Line l;
    l.s(key::kModule).s(" ").x(info->dlpi_addr).s(" ").x(lo).s(" ").x(hi).s(" ").esc(name);
    meta_line(l);
    return 0;
}

static void write_header() {
    Line l;
    l.s(key::kHeader).s(" ").u(firstrace::format::kFormatVersion);
    meta_line(l);
    l.n = 0;
    l.s(key::kToolVersion).s(" ").s(FIRSTRACE_VERSION);
    meta_line(l);
    char exe[4096];
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        l.n = 0;
        l.s(key::kProgram).s(" ").esc(exe, static_cast<std::size_t>(n));
        meta_line(l);
    }
    const int fd = ::open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        char args[16384];
        ssize_t got = 0, r;
        while (got < static_cast<ssize_t>(sizeof args) &&
               (r = ::read(fd, args + got, sizeof args - got)) > 0)
            got += r;
        ::close(fd);
        for (ssize_t i = 0; i < got;) {
            const std::size_t len = strnlen(args + i, static_cast<std::size_t>(got - i));
            l.n = 0;
            l.s(key::kArg).s(" ").esc(args + i, len);
            meta_line(l);
            i += static_cast<ssize_t>(len) + 1;
        }
    }
    l.n = 0;
    l.s(key::kPid).s(" ").u(static_cast<u64>(getpid()));
    meta_line(l);
    struct utsname host;
    if (uname(&host) == 0) {
        l.n = 0;
        l.s(key::kHost).s(" ").esc(host.nodename);
        meta_line(l);
    }
    struct timespec rt;
    clock_gettime(CLOCK_REALTIME, &rt);
    l.n = 0;
    l.s(key::kStartTime).s(" ").u(static_cast<u64>(rt.tv_sec)).s(".").u(static_cast<u64>(rt.tv_nsec));
    meta_line(l);
    l.n = 0;
    l.s(key::kClock).s(" ").u(now());
    meta_line(l);
    dl_iterate_phdr(module_callback, nullptr);
}

static void on_fatal_signal(int sig, siginfo_t*, void*) {
    finalize("signal", sig, true);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void atexit_handler() {
    finalize("exit", 0, false);
}

// The fork child's trace directory (g_dir, just created by the child, mode 0700): streams and
// metadata are created through its descriptor, as in ensure_init.
static void g_meta_fd_reopen() {
    if (g_meta_fd >= 0) ::close(g_meta_fd);
    if (g_dir_fd >= 0) ::close(g_dir_fd);
    g_dir_fd = ::open(g_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    g_meta_fd = g_dir_fd < 0 ? -1
                             : ::openat(g_dir_fd, firstrace::format::kMetadataFile,
                                        O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_APPEND |
                                            O_CLOEXEC,
                                        0600);
}

// The child of fork() is traced into a trace of its own, `fork-<pid>` inside the parent's
// trace directory: the parent's files and unflushed records stay the parent's, the other
// threads do not exist in the child (their states are recycled, the locks they may have held
// are free), and the forking thread continues as process 0 of the new trace.
static void child_after_fork() {
    ThreadState* self = tls_state;
    const bool traced = g_state.load(std::memory_order_acquire) == RtState::Ready &&
                        !g_finalized.load() && self != nullptr && self->guard == 0;
    g_state.store(RtState::Disabled, std::memory_order_release);
    if (!traced) {
        tls_state = nullptr;
        tls_done = true;
        return;
    }
    self->guard = 1;
    Line dir;
    dir.s(g_dir).s("/").s(firstrace::format::kForkPrefix).u(static_cast<u64>(getpid()));
    if (dir.n >= sizeof g_dir - 64 || mkdir(dir.c_str(), 0700) != 0) {
        tls_state = nullptr;
        tls_done = true;
        return;
    }
    std::memcpy(g_dir, dir.c_str(), dir.n + 1);
    g_state_lock.store(0);
    g_meta_fd_reopen();
    for (u32 i = 0; i < kRegistrySize; ++i) {
        ThreadState* t = g_registry[i].exchange(nullptr);
        if (t == nullptr) continue;
        if (t->fd >= 0) ::close(t->fd); // the child's copy of the parent's descriptor
        t->fd = -1;
        if (t != self) release_state(t);
    }
    std::memset(static_cast<void*>(g_thread_map), 0, kThreadMapSize * sizeof(ThreadMapEntry));
    g_next_pid.store(0);
    g_live_threads.store(0);
    write_header();
    if (g_instrumented.load()) { // the child runs the same instrumented code
        Line l;
        l.s(key::kInstrumented).s(" 1");
        meta_line(l);
    }
    // the forking thread: a fresh stream, its unflushed records were the parent's
    const u32 pid = new_pid();
    const u32 depth = self->depth;
    release_state(self);
    tls_state = nullptr;
    ThreadState* t = create_state(pid, kNoPid); // recycles self first: its shadow stack stays
    tls_state = t;
    tls_done = t == nullptr;
    if (t != nullptr) {
        if (t == self) t->depth = depth;
        t->guard = 0;
    }
    g_state.store(RtState::Ready, std::memory_order_release);
}

void ensure_init() {
    RtState expected = RtState::Uninit;
    if (!g_state.compare_exchange_strong(expected, RtState::Initializing)) return;
    const char* disable = getenv("FIRSTRACE_DISABLE");
    if (disable && disable[0] && disable[0] != '0') {
        g_state.store(RtState::Disabled);
        return;
    }
    if (const char* depth = getenv("FIRSTRACE_STACK_DEPTH")) {
        u64 v = 0;
        for (const char* c = depth; *c >= '0' && *c <= '9' && v <= kMaxStack; ++c)
            v = v * 10 + static_cast<u64>(*c - '0');
        g_stack_depth = static_cast<u32>(v < kMaxStack ? v : kMaxStack);
    }
    const char* out = getenv("FIRSTRACE_OUTPUT");
    Line dir;
    if (out && out[0]) {
        dir.s(out);
    } else {
        dir.s("firstrace.").u(static_cast<u64>(getpid())).s(".trace");
        g_announce = true;
    }
    if (dir.n >= sizeof g_dir - 64) {
        message("trace directory name too long; not tracing");
        g_state.store(RtState::Disabled);
        return;
    }
    std::memcpy(g_dir, dir.c_str(), dir.n + 1);
    if (mkdir(g_dir, 0700) != 0 && errno != EEXIST) {
        Line l;
        l.s("cannot create trace directory ")
            .s(g_dir)
            .s(": ")
            .s(strerror(errno))
            .s("; not tracing");
        message(l.c_str());
        g_state.store(RtState::Disabled);
        return;
    }
    g_dir_fd = ::open(g_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat dir_stat;
    const char* refused = nullptr;
    if (g_dir_fd < 0)
        refused = strerror(errno);
    else if (fstat(g_dir_fd, &dir_stat) != 0)
        refused = strerror(errno);
    else if (dir_stat.st_uid != geteuid())
        refused = "owned by another user";
    else if (dir_stat.st_mode & (S_IWGRP | S_IWOTH))
        refused = "writable by other users";
    if (refused != nullptr) {
        Line l;
        l.s("refusing trace directory ").s(g_dir).s(": ").s(refused).s("; not tracing");
        message(l.c_str());
        if (g_dir_fd >= 0) ::close(g_dir_fd);
        g_dir_fd = -1;
        g_state.store(RtState::Disabled);
        return;
    }
    Line meta;
    meta.s(g_dir).s("/").s(firstrace::format::kMetadataFile);
    g_meta_fd = ::openat(g_dir_fd, firstrace::format::kMetadataFile,
                         O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (g_meta_fd < 0) {
        Line l;
        l.s("cannot create ")
            .s(meta.c_str())
            .s(": ")
            .s(strerror(errno))
            .s(errno == EEXIST ? " (another traced process writes there); not tracing"
                               : "; not tracing");
        message(l.c_str());
        g_state.store(RtState::Disabled);
        return;
    }
    g_cctx_size = ZSTD_estimateCCtxSize_usingCParams(ZSTD_getCParams(1, kBufferSize, 0));
    g_objects = static_cast<ObjEntry*>(map(kObjTableSize * sizeof(ObjEntry)));
    g_thread_map = static_cast<ThreadMapEntry*>(map(kThreadMapSize * sizeof(ThreadMapEntry)));
    write_header();

    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fatal_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_ONSTACK; // flush after a stack overflow too
    sigemptyset(&sa.sa_mask);
    const int fatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
                         SIGTERM, SIGINT, SIGHUP, SIGQUIT};
    for (int sig : fatal) {
        struct sigaction old;
        if (sigaction(sig, nullptr, &old) == 0 && !(old.sa_flags & SA_SIGINFO) &&
            old.sa_handler == SIG_DFL)
            sigaction(sig, &sa, nullptr);
    }
    install_exit_flush_handler();
    atexit(atexit_handler);
    pthread_atfork(nullptr, nullptr, child_after_fork);
    g_state.store(RtState::Ready, std::memory_order_release);
}

void mark_instrumented() {
    if (g_instrumented.exchange(true)) return;
    Line l;
    l.s(key::kInstrumented).s(" 1");
    meta_line(l);
}

// Threads alive at exit (a worker blocked in the OpenMP pool, a detached thread sleeping):
// finalize() signals each of them; the handler completes the thread's own open computation
// event (and, at a normal exit, ends its process: the thread's execution ends with the
// program's, so the trace is not truncated by it) unless the thread is inside the runtime,
// whose committed records the flush below keeps anyway. The exiting thread waits, bounded, for
// the acknowledgements. A thread that blocks the signal only loses its open event.
static std::atomic<u32> g_exit_acks{0};
static std::atomic<bool> g_exit_end_records{false};

int exit_flush_signal() {
    return SIGRTMAX - 3;
}

static void on_exit_flush_signal(int, siginfo_t*, void*) {
    const int saved_errno = errno;
    ThreadState* t = tls_state;
    if (t != nullptr && t->guard == 0 && !t->ended && !t->abandoned.load()) {
        t->guard = 1; // stays set: after the exit flush the thread is no longer traced
        const u64 c = now();
        close_computation(t, c);
        if (g_exit_end_records.load(std::memory_order_acquire)) {
            emit_switch(t, t->thread_pid);
            emit_end(t, c);
        }
    }
    g_exit_acks.fetch_add(1, std::memory_order_release);
    errno = saved_errno;
}

static void install_exit_flush_handler() {
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_exit_flush_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigfillset(&sa.sa_mask);
    sigaction(exit_flush_signal(), &sa, nullptr);
}

static void complete_other_threads(ThreadState* self, bool end_records) {
    g_exit_end_records.store(end_records, std::memory_order_release);
    const int pid = static_cast<int>(getpid());
    u32 sent = 0;
    for (u32 i = 0; i < kRegistrySize; ++i) {
        ThreadState* t = g_registry[i].load(std::memory_order_acquire);
        if (t == nullptr || t == self || t->ended) continue;
        if (syscall(SYS_tgkill, pid, t->os_tid, exit_flush_signal()) == 0) ++sent;
    }
    const u64 deadline = now() + 1'000'000'000ull;
    while (g_exit_acks.load(std::memory_order_acquire) < sent && now() < deadline) {
        struct timespec pause = {0, 200'000};
        nanosleep(&pause, nullptr);
    }
}

// Writes what is complete and the end line. Called once: at exit, from _exit, or from a fatal
// signal handler. Other threads still running are flushed up to their last complete record
// and then write nothing more.
void finalize(const char* how, long value, bool in_signal) {
    if (g_state.load(std::memory_order_acquire) != RtState::Ready) return;
    if (g_finalized.exchange(true)) return;
    ThreadState* self = tls_state;
    if (self != nullptr) {
        if (!in_signal || (self->guard == 0)) {
            self->guard = 1;
            const u64 c = now();
            emit_switch(self, self->thread_pid);
            emit_end(self, c);
            flush_all_own(self);
        } else if (!self->in_flush) {
            // interrupted inside the runtime: keep what was complete
            write_chunk(self, self->committed.load(std::memory_order_acquire));
        }
        self->abandoned.store(true);
    }
    complete_other_threads(self, std::strcmp(how, "exit") == 0);
    u32 running = 0;
    for (u32 i = 0; i < kRegistrySize; ++i) {
        ThreadState* t = g_registry[i].load(std::memory_order_acquire);
        if (t == nullptr || t == self) continue;
        ++running;
        // bounded wait for the owner to finish its current record
        bool locked = false;
        for (int k = 0; k < 100000 && !locked; ++k) {
            u32 e = 0;
            locked = t->io_lock.compare_exchange_weak(e, 1, std::memory_order_acquire);
            if (!locked) __builtin_ia32_pause();
        }
        if (!locked) continue;
        if (g_registry[i].load(std::memory_order_acquire) == t && !t->abandoned.load()) {
            write_chunk(t, t->committed.load(std::memory_order_acquire));
            t->abandoned.store(true);
        }
        t->io_lock.store(0, std::memory_order_release);
    }
    if (!in_signal) dl_iterate_phdr(module_callback, nullptr);
    if (const int error = g_write_errno.load(); error != 0) {
        Line w;
        w.s(firstrace::format::metadata_key::kWriteError).s(" ");
        w.u(g_write_error_stream.load()).s(" ").i(error);
        meta_line(w);
    }
    Line l;
    l.s("end ").s(how).s(" ").i(value).s(" ").u(running);
    meta_line(l);
    if (g_announce && !in_signal) {
        Line m;
        m.s("trace written to ").s(g_dir);
        message(m.c_str());
    }
    g_state.store(RtState::Finished, std::memory_order_release);
}

} // namespace frt

// The runtime initializes itself as soon as it is loaded; instrumented modules also call
// __tsan_init from their constructors.
__attribute__((constructor)) static void frt_constructor() {
    frt::ensure_init();
}
__attribute__((destructor)) static void frt_destructor() {
    frt::finalize("exit", 0, false);
}
