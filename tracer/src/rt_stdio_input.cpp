// What a stream reads from its descriptor. An input call (fgetc, fgets, fread, getdelim,
// fscanf, their wide and _unlocked forms, __uflow/__underflow from the inline getc_unlocked)
// refills the stream's buffer with read(2) inside the C library, where the interposed read
// does not see it: a thread that reads lines a producer writes to a pipe, FIFO or socket
// through fdopen + fgets was unordered with the producer (ThreadSanitizer too). StreamInput,
// made around the real call, compares the stream's read buffer before and after: when the call
// refilled it (the buffer was empty and the call met neither end of file nor an error, or the
// buffer's bounds moved, or its read position went back), it is a receive on the descriptor,
// as a read returning data is (rt_fd.cpp: ordered after the writers' sends so far); when it
// met end of file, a receive returning 0 (also after the writers' ends of data). A refill that
// leaves the bounds and position where they were (a read of exactly as many bytes as the last,
// from a non-empty buffer) is not seen. The FILE's fields are read without its lock: another
// thread's concurrent call on the stream may be taken for this one's (an ordering more). A
// refill of an fmemopen stream reads the program's buffer (rt_stdio.cpp).
#include "rt_fd.hpp"
#include "rt_real.hpp"
#include "rt_record.hpp"
#include "rt_stdio.hpp"

using namespace frt;

StreamInput::StreamInput(u64 pc, FILE* f) : pc_(pc), f_(f) {
    if (f == nullptr || from_runtime(pc)) {
        f_ = nullptr;
        return;
    }
    base_ = f->_IO_read_base;
    ptr_ = f->_IO_read_ptr;
    end_ = f->_IO_read_end;
    flags_ = f->_flags;
}

StreamInput::~StreamInput() {
    if (f_ == nullptr) return;
    const int flags = f_->_flags;
    const bool was_empty = ptr_ >= end_;
    const bool moved =
        f_->_IO_read_base != base_ || f_->_IO_read_end != end_ || f_->_IO_read_ptr < ptr_;
    if (f_->_fileno < 0) { // a memory stream: what a refill copied from the program's buffer
        if ((flags & _IO_ERR_SEEN) == 0 && moved) memory_stream_refilled(pc_, f_);
        return;
    }
    if ((flags & _IO_EOF_SEEN) != 0 && (flags_ & _IO_EOF_SEEN) == 0) {
        fd::after_receive(f_->_fileno, pc_, 0);
        return;
    }
    if ((flags & _IO_ERR_SEEN) != 0) return;
    if (was_empty || moved)
        fd::after_receive(f_->_fileno, pc_, f_->_IO_read_end - f_->_IO_read_base);
}

// glibc's inline getc_unlocked (<bits/stdio.h>, -O1 and up) calls these when the buffer is empty.
extern "C" int __uflow(FILE* f);
extern "C" int __underflow(FILE* f);
namespace {
FRT_DECLARE_REAL(__uflow);
FRT_DECLARE_REAL(__underflow);
} // namespace
FRT_EXPORT int __uflow(FILE* f) {
    StreamInput input(FRT_CALLER(), f);
    return REAL(__uflow)(f);
}
FRT_EXPORT int __underflow(FILE* f) {
    StreamInput input(FRT_CALLER(), f);
    return REAL(__underflow)(f);
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(__uflow)
FRT_INTERCEPTOR_ALIAS(__underflow)
