// What a stream writes to its descriptor inside an output call. XSH 2.5: a fully buffered
// stream transmits its buffer when it is filled, a line-buffered one when a newline is written,
// an unbuffered one at once; glibc does it with write(2) inside fwrite, fputs, fprintf, ...,
// where the interposed write does not see it. A thread that wrote a record, then output with
// no fflush until the buffer overflowed, and a thread that read those bytes from the pipe were
// unordered (a false race; ThreadSanitizer too). Only fflush and fclose were sends (rt_stdio.cpp,
// rt_libc_memory.cpp).
// StreamOutput, made around the real call after the call's own reads of the program's data,
// is a send on the descriptor (fd::writes_flushed) before the call when the call will transmit:
// the stream is unbuffered; or its buffer exists and the pending bytes plus the call's overflow
// it (glibc copies what fits and transmits when more is left); or it is line-buffered and the
// call's text has a newline. A send before the call is ordered before the reader's receive of
// those bytes. When the call's size is not known before it (the printf family) or the buffer
// not yet allocated, the comparison is made after the call: fewer bytes pending than before
// plus those the call added means some were transmitted, a send after the call (a reader that
// got the bytes in between is not ordered after it: the window of a few instructions the
// probes5 notes accepted for the relays). Memory streams (no descriptor) are left to
// rt_stdio.cpp. The FILE's fields are read without its lock (a concurrent call on the stream by
// another thread can be taken for this one's: an ordering more).
#include <string.h>

#include "rt_fd.hpp"
#include "rt_record.hpp"
#include "rt_stdio.hpp"

using namespace frt;

namespace {
// glibc's libio.h flags (not in the installed headers; stable since glibc 2.0).
constexpr int kUnbuffered = 0x0002;
constexpr int kLineBuffered = 0x0200;
constexpr int kCurrentlyPutting = 0x0800;

u64 pending_bytes(const FILE* f) {
    if ((f->_flags & kCurrentlyPutting) == 0 || f->_IO_write_ptr < f->_IO_write_base) return 0;
    return static_cast<u64>(f->_IO_write_ptr - f->_IO_write_base);
}

bool will_transmit(const FILE* f, u64 pending, const void* text, u64 bytes, bool ends_line) {
    if (bytes == 0) return false;
    if ((f->_flags & kUnbuffered) != 0) return true;
    if (bytes == StreamOutput::kUnknown || f->_IO_buf_base == nullptr) return false;
    if (pending + bytes > static_cast<u64>(f->_IO_buf_end - f->_IO_buf_base)) return true;
    return (f->_flags & kLineBuffered) != 0 &&
           (ends_line || (text != nullptr && memchr(text, '\n', bytes) != nullptr));
}
} // namespace

StreamOutput::StreamOutput(u64 pc, FILE* f, const void* text, u64 bytes, bool ends_line)
    : pc_(pc), f_(f), bytes_(bytes) {
    if (f == nullptr || f->_fileno < 0 || from_runtime(pc)) {
        f_ = nullptr;
        return;
    }
    pending_ = pending_bytes(f);
    if (will_transmit(f, pending_, text, bytes, ends_line)) {
        fd::writes_flushed(f->_fileno, pc);
        f_ = nullptr;
    }
}

void StreamOutput::finished(i64 written) {
    if (f_ == nullptr || written <= 0) return;
    const u64 added = bytes_ != kUnknown ? bytes_ : static_cast<u64>(written);
    if (pending_bytes(f_) < pending_ + added) fd::writes_flushed(f_->_fileno, pc_);
    f_ = nullptr;
}
