// Opening and closing standard I/O streams: fopen/fopen64/freopen/tmpfile return a stream on a
// descriptor the kernel just handed out (a new incarnation of its number, rt_fd.cpp); fclose
// destroys the FILE (a plain write of it: a stdio call on the stream racing with its fclose is a
// race, rt_libc_memory.cpp) and closes its descriptor (a write of the descriptor's byte; a later
// open of the number is a new incarnation). freopen closes the old descriptor first. The stream's
// lock and the other FILE calls are in rt_stdio_stream.cpp; the allocations and frees glibc makes
// inside fopen/tmpfile/fclose (the FILE, its buffer) are attributed to the program's call. The
// descriptor is read through the real fileno: a program may define its own fileno (and fopen,
// calling on to __interceptor_fopen, below).
//
// Streams made otherwise: fdopen (on a descriptor the program has), popen (a pipe the kernel
// just handed out; pclose is an fclose that also waits for the child), fmemopen,
// open_memstream, open_wmemstream and fopencookie: glibc allocates their FILE inside, the
// program's call. A memory stream stores into the program's memory when it is flushed or
// closed (POSIX open_memstream: fflush and fclose update *ptr and *sizeloc; glibc's fmemopen
// writes its buffer then): those calls write *ptr, *sizeloc and the text with its terminator
// (open_memstream), or the buffer (fmemopen opened for writing). An fmemopen stream opened for
// reading copies its buffer into the stream's when an input call refills it (rt_stdio_input.cpp):
// a read of the bytes copied, buffer[start, start + n) with n the refill's size and start its
// position then (ftello less what the call consumed of the refill). Up to kMemoryStreams such
// streams are open at once; more are only allocations. Not modelled: a memory stream's writes
// that happen when its internal buffer fills between two flushes, fopencookie's callbacks (the
// program's code, traced where instrumented).
#include <stdio.h>
#include <wchar.h>

#include "rt_fd.hpp"
#include "rt_real.hpp"
#include "rt_record.hpp"
#include "rt_stdio.hpp"

using namespace frt;

namespace {
FRT_DECLARE_REAL(fopen);
FRT_DECLARE_REAL(fopen64);
FRT_DECLARE_REAL(freopen);
FRT_DECLARE_REAL(tmpfile);
FRT_DECLARE_REAL(fclose);
FRT_DECLARE_REAL(fileno);
FRT_DECLARE_REAL(freopen64);
FRT_DECLARE_REAL(tmpfile64);
FRT_DECLARE_REAL(fdopen);
FRT_DECLARE_REAL(popen);
FRT_DECLARE_REAL(pclose);
FRT_DECLARE_REAL(fmemopen);
FRT_DECLARE_REAL(open_memstream);
FRT_DECLARE_REAL(open_wmemstream);
FRT_DECLARE_REAL(fopencookie);
FRT_DECLARE_REAL(ftello64);

// The open memory streams: where each stores on flush and close. A slot is taken by a CAS on
// `stream`; the other fields are written before `stream` is published (release) and read after
// it is found (acquire).
struct MemoryStream {
    std::atomic<FILE*> stream;
    void* text;    // open_memstream: char** / wchar_t**; fmemopen: the buffer
    size_t* size;  // open_memstream: the size it reports; fmemopen: null
    u64 capacity;  // fmemopen: the buffer's size
    u64 char_size; // 1, or sizeof(wchar_t) for open_wmemstream
    bool writes;   // open_memstream; fmemopen opened for writing
    bool reads;    // fmemopen opened for reading
};
constexpr int kMemoryStreams = 64;
MemoryStream g_memory_streams[kMemoryStreams];

FILE* memory_stream_opened(FILE* f, void* text, size_t* size, u64 capacity, u64 char_size,
                           bool writes = true, bool reads = false) {
    if (f == nullptr) return f;
    for (MemoryStream& m : g_memory_streams) {
        FILE* empty = nullptr;
        if (m.stream.load(std::memory_order_relaxed) != nullptr ||
            !m.stream.compare_exchange_strong(empty, reinterpret_cast<FILE*>(1),
                                              std::memory_order_acquire))
            continue;
        m.text = text;
        m.size = size;
        m.capacity = capacity;
        m.char_size = char_size;
        m.writes = writes;
        m.reads = reads;
        m.stream.store(f, std::memory_order_release);
        break;
    }
    return f;
}
MemoryStream* memory_stream(FILE* f) {
    if (f == nullptr) return nullptr;
    for (MemoryStream& m : g_memory_streams)
        if (m.stream.load(std::memory_order_acquire) == f) return &m;
    return nullptr;
}
// What a flush or close of the memory stream m stored, recorded for the program's call at pc.
void memory_stream_stored(u64 pc, const MemoryStream& m) {
    if (!m.writes) return;
    InterceptorScope scope(program_call(pc));
    if (!scope) return;
    ThreadState* t = scope.thread();
    if (m.size == nullptr) {
        library_access(t, pc, m.text, m.capacity, true);
        return;
    }
    auto* text = static_cast<void**>(m.text);
    library_access(t, pc, text, sizeof *text, true);
    library_access(t, pc, m.size, sizeof *m.size, true);
    if (*text != nullptr) library_access(t, pc, *text, (*m.size + 1) * m.char_size, true);
}

FILE* opened(FILE* f, u64 pc) {
    tls_library_call_pc = 0;
    if (f != nullptr) fd::file_opened(REAL(fileno)(f), pc);
    return f;
}
// glibc allocates the FILE (and later its buffer) inside the call: the program's allocation.
u64 opening(u64 pc) {
    if (!from_runtime(pc)) tls_library_call_pc = pc;
    return pc;
}
// The C library writes out what the stream's buffer holds, then closes its descriptor.
void closing(FILE* f, u64 pc) {
    if (f == nullptr) return;
    const int fd = REAL(fileno)(f);
    if (output_pending(f)) fd::writes_flushed(fd, pc);
    fd::retired(fd, pc);
}
} // namespace

FRT_EXPORT FILE* fopen(const char* path, const char* mode) {
    const u64 pc = opening(FRT_CALLER());
    return opened(REAL(fopen)(path, mode), pc);
}
FRT_EXPORT FILE* fopen64(const char* path, const char* mode) {
    const u64 pc = opening(FRT_CALLER());
    return opened(REAL(fopen64)(path, mode), pc);
}
FRT_EXPORT FILE* freopen(const char* path, const char* mode, FILE* f) {
    closing(f, FRT_CALLER());
    return opened(REAL(freopen)(path, mode, f), FRT_CALLER());
}
FRT_EXPORT FILE* tmpfile() {
    const u64 pc = opening(FRT_CALLER());
    return opened(REAL(tmpfile)(), pc);
}
namespace {
// fclose and pclose: a plain write of the FILE, the descriptor retired, the FILE and its
// buffer freed inside (the program's call: a use of the stream by another thread races with
// this line, not with libio's free); a memory stream stores its text.
template <class Close> int closed(u64 pc, FILE* f, Close close) {
    if (InterceptorScope scope(from_runtime(pc) ? nullptr : enter_attached()); scope) {
        library_access(scope.thread(), pc, f, sizeof(FILE), true);
    }
    closing(f, pc);
    MemoryStream* m = memory_stream(f);
    int r;
    {
        ProgramAllocations program(pc);
        r = close();
    }
    if (m != nullptr) {
        memory_stream_stored(pc, *m);
        m->stream.store(nullptr, std::memory_order_release);
    }
    return r;
}
} // namespace

namespace frt {
void memory_stream_flushed(u64 pc, FILE* f) {
    if (const MemoryStream* m = memory_stream(f)) memory_stream_stored(pc, *m);
}
void memory_stream_refilled(u64 pc, FILE* f) {
    const MemoryStream* m = memory_stream(f);
    if (m == nullptr || !m->reads || m->size != nullptr) return;
    const off64_t position = REAL(ftello64)(f);
    const u64 n = static_cast<u64>(f->_IO_read_end - f->_IO_read_base);
    const u64 consumed = static_cast<u64>(f->_IO_read_ptr - f->_IO_read_base);
    if (position < 0 || static_cast<u64>(position) < consumed) return;
    const u64 start = static_cast<u64>(position) - consumed;
    if (start >= m->capacity || n == 0) return;
    InterceptorScope scope(program_call(pc));
    if (scope)
        library_access(scope.thread(), pc, static_cast<char*>(m->text) + start,
                       n < m->capacity - start ? n : m->capacity - start, false);
}
} // namespace frt

FRT_EXPORT int fclose(FILE* f) {
    return closed(FRT_CALLER(), f, [&] { return REAL(fclose)(f); });
}
FRT_EXPORT int pclose(FILE* f) {
    return closed(FRT_CALLER(), f, [&] { return REAL(pclose)(f); });
}
FRT_EXPORT FILE* freopen64(const char* path, const char* mode, FILE* f) {
    closing(f, FRT_CALLER());
    return opened(REAL(freopen64)(path, mode, f), FRT_CALLER());
}
FRT_EXPORT FILE* tmpfile64() {
    const u64 pc = opening(FRT_CALLER());
    return opened(REAL(tmpfile64)(), pc);
}
FRT_EXPORT FILE* popen(const char* command, const char* mode) {
    const u64 pc = opening(FRT_CALLER());
    return opened(REAL(popen)(command, mode), pc);
}
FRT_EXPORT FILE* fdopen(int fd, const char* mode) {
    ProgramAllocations program(FRT_CALLER());
    return REAL(fdopen)(fd, mode);
}
FRT_EXPORT FILE* fopencookie(void* cookie, const char* mode, cookie_io_functions_t io) {
    ProgramAllocations program(FRT_CALLER());
    return REAL(fopencookie)(cookie, mode, io);
}
FRT_EXPORT FILE* fmemopen(void* buf, size_t size, const char* mode) {
    FILE* f;
    {
        ProgramAllocations program(FRT_CALLER());
        f = REAL(fmemopen)(buf, size, mode);
    }
    const bool update = mode != nullptr && (mode[1] == '+' || (mode[1] != 0 && mode[2] == '+'));
    const bool writes = mode != nullptr && (mode[0] != 'r' || update);
    const bool reads = mode != nullptr && (mode[0] == 'r' || update);
    if (buf == nullptr) return f;
    return memory_stream_opened(f, buf, nullptr, size, 1, writes, reads);
}
FRT_EXPORT FILE* open_memstream(char** text, size_t* size) {
    FILE* f;
    {
        ProgramAllocations program(FRT_CALLER());
        f = REAL(open_memstream)(text, size);
    }
    return memory_stream_opened(f, text, size, 0, 1);
}
FRT_EXPORT FILE* open_wmemstream(wchar_t** text, size_t* size) {
    FILE* f;
    {
        ProgramAllocations program(FRT_CALLER());
        f = REAL(open_wmemstream)(text, size);
    }
    return memory_stream_opened(f, text, size, 0, sizeof(wchar_t));
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(fopen)
FRT_INTERCEPTOR_ALIAS(fopen64)
FRT_INTERCEPTOR_ALIAS(freopen)
FRT_INTERCEPTOR_ALIAS(tmpfile)
FRT_INTERCEPTOR_ALIAS(fclose)
FRT_INTERCEPTOR_ALIAS(pclose)
FRT_INTERCEPTOR_ALIAS(freopen64)
FRT_INTERCEPTOR_ALIAS(tmpfile64)
FRT_INTERCEPTOR_ALIAS(popen)
FRT_INTERCEPTOR_ALIAS(fdopen)
FRT_INTERCEPTOR_ALIAS(fopencookie)
FRT_INTERCEPTOR_ALIAS(fmemopen)
FRT_INTERCEPTOR_ALIAS(open_memstream)
FRT_INTERCEPTOR_ALIAS(open_wmemstream)
