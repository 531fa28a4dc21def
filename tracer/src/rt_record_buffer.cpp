// The record buffer and chunk writer (rt_record_buffer.hpp), and the records other than the
// computation events (rt_site_table.cpp): synchronization, names, heap blocks, benign ranges,
// processes, switches, ends.
#define ZSTD_STATIC_LINKING_ONLY
#include "rt_record_buffer.hpp"

#include <zstd.h>

#include <cerrno>
#include <cstring>

#include <unistd.h>

#include "rt_metadata.hpp"
#include "rt_own_descriptors.hpp"
#include "rt_system.hpp"

namespace frt {

namespace {
std::size_t g_cctx_size = 0;

std::size_t chunk_capacity() {
    return ZSTD_compressBound(kBufferSize) + sizeof(firstrace::format::ChunkHeader);
}
constexpr std::size_t align64(std::size_t v) {
    return (v + 63) & ~std::size_t{63};
}
} // namespace

void record_buffer_init() {
    g_cctx_size = ZSTD_estimateCCtxSize_usingCParams(ZSTD_getCParams(1, kBufferSize, 0));
}

std::size_t record_buffer_size() {
    return align64(kBufferSize) + align64(chunk_capacity()) + g_cctx_size;
}

bool record_buffer_attach(ThreadState* t, char* mem) {
    std::size_t off = 0;
    t->buf = reinterpret_cast<unsigned char*>(mem + off);
    off = align64(off + kBufferSize);
    t->zbuf = reinterpret_cast<unsigned char*>(mem + off);
    t->zcap = chunk_capacity();
    off = align64(off + t->zcap);
    t->cctx = ZSTD_initStaticCCtx(mem + off, g_cctx_size);
    if (t->cctx == nullptr) return false;
    ZSTD_CCtx_setParameter(static_cast<ZSTD_CCtx*>(t->cctx), ZSTD_c_compressionLevel, 1);
    return true;
}

void write_chunk(ThreadState* t, std::size_t n) {
    using firstrace::format::ChunkHeader;
    if (n == 0 || t->fd.load(std::memory_order_relaxed) < 0) return;
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
        // loaded now: the program may have taken the number it had (rt_own_descriptors.cpp)
        if (!write_all(t->fd.load(std::memory_order_relaxed), t->zbuf, hs + z)) {
            // The stream keeps the chunks written before and gets no more: a later chunk after
            // a lost one would be out of sequence.
            const int error = errno;
            close_own_descriptor(t->fd);
            note_stream_write_failed(t->thread_pid, error);
        }
    }
    t->in_flush = false;
}

void flush_locked(ThreadState* t, std::size_t n) {
    write_chunk(t, n);
    std::memmove(t->buf, t->buf + n, t->len - n);
    t->len -= n;
    std::size_t c = t->committed.load(std::memory_order_relaxed);
    t->committed.store(c > n ? c - n : 0, std::memory_order_relaxed);
}

void flush_all_own(ThreadState* t) {
    if (begin_record(t)) {
        flush_locked(t, t->len);
        t->appending = false;
        t->io_lock.store(0, std::memory_order_release);
    }
}

// ---------------------------------------------------------------------------------------------
// Records.

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

void emit_misuse(ThreadState* t, u8 kind, u8 cls, u64 object, u64 pc) {
    if (begin_record(t)) {
        put_byte(t, firstrace::format::kRecMisuse);
        put_byte(t, kind);
        put_byte(t, cls);
        put(t, object);
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

} // namespace frt
