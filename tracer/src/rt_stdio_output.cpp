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
#include <wchar.h>

#include "rt_fd.hpp"
#include "rt_record.hpp"
#include "rt_stdio.hpp"

using namespace frt;

namespace {
// glibc's libio.h flags (not in the installed headers; stable since glibc 2.0).
constexpr int kUnbuffered = 0x0002;
constexpr int kLineBuffered = 0x0200;
constexpr int kCurrentlyPutting = 0x0800;

// glibc's struct _IO_wide_data (a wide-oriented stream's buffer, not in the installed headers)
// begins with the same eight buffer pointers as FILE, to wchar_t.
struct WideBufferPointers {
    wchar_t *read_ptr, *read_end, *read_base, *write_base, *write_ptr, *write_end, *buf_base,
        *buf_end;
};

// The characters pending in f's output buffer (the wide one when `wide`), and the buffer's size
// (0: not allocated yet).
template <class Char> u64 pending_in(const FILE* f, const Char* write_base, const Char* write_ptr) {
    if ((f->_flags & kCurrentlyPutting) == 0 || write_ptr < write_base) return 0;
    return static_cast<u64>(write_ptr - write_base);
}
u64 pending_characters(const FILE* f, bool wide) {
    if (!wide) return pending_in(f, f->_IO_write_base, f->_IO_write_ptr);
    const auto* w = reinterpret_cast<const WideBufferPointers*>(f->_wide_data);
    return w != nullptr ? pending_in(f, w->write_base, w->write_ptr) : 0;
}
u64 buffer_size(const FILE* f, bool wide) {
    if (!wide) return static_cast<u64>(f->_IO_buf_end - f->_IO_buf_base);
    const auto* w = reinterpret_cast<const WideBufferPointers*>(f->_wide_data);
    return w != nullptr ? static_cast<u64>(w->buf_end - w->buf_base) : 0;
}
bool has_newline(const void* text, u64 characters, bool wide) {
    if (text == nullptr) return false;
    if (wide) return wmemchr(static_cast<const wchar_t*>(text), L'\n', characters) != nullptr;
    return memchr(text, '\n', characters) != nullptr;
}

bool will_transmit(const FILE* f, bool wide, u64 pending, const void* text, u64 characters,
                   bool ends_line) {
    if (characters == 0) return false;
    if ((f->_flags & kUnbuffered) != 0) return true;
    if (characters == StreamOutput::kUnknown) return false;
    // a line ends: transmitted also when the call first allocates the buffer (a wide stream's
    // wide buffer comes with its first wide output)
    if ((f->_flags & kLineBuffered) != 0 && (ends_line || has_newline(text, characters, wide)))
        return true;
    const u64 size = buffer_size(f, wide);
    return size != 0 && pending + characters > size;
}
} // namespace

StreamOutput::StreamOutput(u64 pc, FILE* f, const void* text, u64 bytes, bool ends_line)
    : StreamOutput(pc, f, text, bytes, ends_line, false) {}
StreamOutput::StreamOutput(u64 pc, FILE* f, const wchar_t* text, u64 characters, Wide)
    : StreamOutput(pc, f, text, characters, false, true) {}

StreamOutput::StreamOutput(u64 pc, FILE* f, const void* text, u64 characters, bool ends_line,
                           bool wide)
    : pc_(pc), f_(f), bytes_(characters), wide_(wide) {
    if (f == nullptr || f->_fileno < 0 || from_runtime(pc)) {
        f_ = nullptr;
        return;
    }
    pending_ = pending_characters(f, wide);
    if (will_transmit(f, wide, pending_, text, characters, ends_line)) {
        fd::writes_flushed(f->_fileno, pc);
        f_ = nullptr;
    }
}

bool frt::output_pending(const FILE* f) {
    if (f->_IO_write_ptr > f->_IO_write_base) return true;
    const auto* w =
        f->_mode > 0 ? reinterpret_cast<const WideBufferPointers*>(f->_wide_data) : nullptr;
    return w != nullptr && w->write_ptr > w->write_base;
}

void StreamOutput::finished(i64 written) {
    if (f_ == nullptr || written <= 0) return;
    const u64 added = bytes_ != kUnknown ? bytes_ : static_cast<u64>(written);
    if (pending_characters(f_, wide_) < pending_ + added) fd::writes_flushed(f_->_fileno, pc_);
    f_ = nullptr;
}
