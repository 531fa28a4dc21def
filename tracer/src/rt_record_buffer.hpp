// The per-thread record buffer and its chunk writer. A thread appends records (varints, see
// trace_format.hpp) to its raw buffer under its io_lock; a full buffer is compressed (zstd) into
// one checksummed chunk of the thread's stream. `committed` marks the end of the last complete
// record, what an exit or crash flush from another thread may write (finalize, rt_exit.cpp).
#pragma once

#include <cstring>

#include "rt_internal.hpp"

namespace frt {

// At initialisation: sizes the per-thread zstd context.
void record_buffer_init();
// Bytes of one thread's buffers (raw buffer, compressed chunk, zstd context).
std::size_t record_buffer_size();
// Lays the buffers out in mem (record_buffer_size() bytes, 64-byte aligned); false on failure.
bool record_buffer_attach(ThreadState* t, char* mem);

// Compresses buf[0, n) into one chunk and writes it (no lock: the caller holds io_lock, or the
// owner can no longer append).
void write_chunk(ThreadState* t, std::size_t n);
// write_chunk, then keeps buf[n, len) for the next chunk. The caller holds io_lock.
void flush_locked(ThreadState* t, std::size_t n);
// Writes everything the calling thread has buffered.
void flush_all_own(ThreadState* t);

// Appending a record: begin_record (false: nothing may be written), put..., end_record.
FRT_INLINE void reserve(ThreadState* t, std::size_t n) {
    if (t->len + n > kBufferSize) flush_locked(t, t->len);
}
FRT_INLINE void put(ThreadState* t, u64 v) {
    reserve(t, 10);
    t->len = static_cast<std::size_t>(firstrace::format::put_varint(t->buf + t->len, v) - t->buf);
}
FRT_INLINE void put_byte(ThreadState* t, u8 b) {
    reserve(t, 1);
    t->buf[t->len++] = b;
}

// Copies of the two varints a, b: the ranges of a strided run (rt_site_table.cpp), all alike
// after the first. Stored as a 64-byte block of whole copies with fixed-size copies the
// compiler inlines (a memcpy call here would go through the runtime's own memcpy interceptor),
// a fraction of an instruction per range instead of two varint encodings.
class RepeatedPair {
  public:
    static constexpr std::size_t kBlock = 64;

    RepeatedPair(u64 a, u64 b) {
        unsigned char pattern[20];
        unsigned char* e = firstrace::format::put_varint(pattern, a);
        e = firstrace::format::put_varint(e, b);
        plen_ = static_cast<std::size_t>(e - pattern);
        per_block_ = kBlock / plen_;
        // whole copies, one after the other (a byte loop indexing the pattern modulo its
        // length paid a division per byte: 25 % of x264's traced run, one pair per site)
        for (std::size_t i = 0; i < per_block_; ++i)
            for (std::size_t j = 0; j < plen_; ++j)
                block_[i * plen_ + j] = pattern[j];
    }

    // Writes at most one block's worth of the `times` copies at out, which has room for
    // kBlock bytes (those past the copies are overwritten next); returns how many it wrote.
    u64 put_block(unsigned char* out, u64 times) const {
        __builtin_memcpy(out, block_, kBlock);
        return times >= per_block_ ? per_block_ : times;
    }
    // Bytes of `copies` copies.
    std::size_t copy_bytes(u64 copies) const { return static_cast<std::size_t>(copies) * plen_; }

  private:
    unsigned char block_[kBlock];
    std::size_t plen_;
    std::size_t per_block_;
};

// `times` copies of the two varints a, b into the record buffer.
inline void put_repeated_pair(ThreadState* t, u64 a, u64 b, u64 times) {
    const RepeatedPair pair(a, b);
    while (times != 0) {
        if (kBufferSize - t->len < RepeatedPair::kBlock) {
            flush_locked(t, t->len);
            continue;
        }
        const u64 copies = pair.put_block(t->buf + t->len, times);
        t->len += pair.copy_bytes(copies);
        times -= copies;
    }
}

inline bool begin_record(ThreadState* t) {
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
inline void end_record(ThreadState* t) {
    t->committed.store(t->len, std::memory_order_release);
    t->appending = false;
    t->io_lock.store(0, std::memory_order_release);
}

inline void put_context(ThreadState* t, const u64* frames, u32 depth) {
    put(t, depth);
    for (u32 i = 0; i < depth; ++i)
        put(t, frames[i]);
}

inline void put_current_context(ThreadState* t) {
    const u32 d = t->depth < kMaxStack ? t->depth : kMaxStack;
    const u32 k = d < kMaxContext ? d : kMaxContext;
    put_context(t, t->stack + (d - k), k);
}

} // namespace frt
