// ThreadSanitizer's run-time configuration as a TSan user left it, kept in the trace
// (trace_format.hpp, metadata keys tsan-*), and TSan's program hooks.
//
// TSan reads its flags at initialisation: __tsan_default_options() first, then TSAN_OPTIONS
// (tsan_flags.cpp InitializeFlags); its suppressions are the file suppressions= names, then
// __tsan_default_suppressions() (tsan_suppressions.cpp InitializeSuppressions). A file name that
// does not exist as given is looked up again relative to the executable's directory
// (sanitizer_suppressions.cpp FindFile). A file TSan cannot read stops the program
// ("failed to read suppressions file"); firstrace says so in one line, records the failure, and
// the program runs and is traced as usual (the analyzer applies the other settings).
//
// __tsan_default_options and __tsan_default_suppressions are declared weak, as TSan declares
// them: the linker exports the program's definitions to the runtime (a shared library), and an
// undefined one is null. The hooks __tsan_on_initialize / __tsan_on_finalize are looked up as
// TSan looks them up (tsan_rtl.cpp Initialize): dlsym(RTLD_DEFAULT), which finds a shared
// library's definition and an executable's exported one (-rdynamic), not an executable's
// unexported one, which TSan does not call either.
// Everything here runs once at start-up (and in a fork child): static buffers, no malloc.
#include "rt_tsan_settings.hpp"
#include "rt_environment.hpp"
#include "rt_metadata.hpp"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <atomic>

#include <firstrace/tsan_flags.hpp>

extern "C" {
__attribute__((weak)) const char* __tsan_default_options();
__attribute__((weak)) const char* __tsan_default_suppressions();
}

namespace frt {

namespace key = firstrace::format::metadata_key;

namespace {

// A captured string: its bytes (truncated to the buffer) and whether it was truncated. No
// member initializers: the objects are zero-initialized statics, not initialized by code that
// could run after the runtime's initialisation (which may come first, from an early call) and
// reset them.
template <std::size_t N> struct Captured {
    char text[N];
    std::size_t length;
    bool present;
    bool truncated;
    void set(const char* s, std::size_t n) {
        present = true;
        truncated = n > N - 1;
        length = truncated ? N - 1 : n;
        std::memcpy(text, s, length);
        text[length] = 0;
    }
};

constinit Captured<8192> g_default_options{};
constinit Captured<8192> g_environment_options{};
constinit Captured<65536> g_default_suppressions{};
constinit Captured<262144> g_file_suppressions{};
char g_file_path[4096];
void (*g_on_initialize)() = nullptr;
int (*g_on_finalize)(int) = nullptr;
int g_file_errno = 0; // the suppressions file could not be read (errno); 0: read or none

void write_chunks(const char* name, const char* text, std::size_t length) {
    const std::size_t chunk = key::kTsanChunkBytes;
    std::size_t at = 0;
    do {
        const std::size_t n = length - at < chunk ? length - at : chunk;
        Line l;
        l.s(name).s(" ").esc(text + at, n);
        write_metadata_line(l);
        at += n;
    } while (at < length);
}

template <std::size_t N> void write_captured(const char* name, const Captured<N>& c) {
    if (c.present) write_chunks(name, c.text, c.length);
}

void say_truncated(const char* what, std::size_t kept) {
    Line l;
    l.s("ThreadSanitizer setting ")
        .s(what)
        .s(" longer than ")
        .u(kept)
        .s(" bytes: only those are kept in the trace");
    message(l.c_str());
}

// The suppressions= path: TSAN_OPTIONS' setting, else the default options' one.
bool suppressions_setting(char* path, std::size_t size) {
    const char* value = nullptr;
    std::size_t length = 0;
    if (!firstrace::format::find_tsan_flag(g_environment_options.text, "suppressions", &value,
                                           &length) &&
        !firstrace::format::find_tsan_flag(g_default_options.text, "suppressions", &value, &length))
        return false;
    if (length == 0 || length >= size) return false;
    std::memcpy(path, value, length);
    path[length] = 0;
    return true;
}

void set_file_path(const char* path) {
    const std::size_t n = strnlen(path, sizeof g_file_path - 1);
    std::memcpy(g_file_path, path, n);
    g_file_path[n] = 0;
}

// As sanitizer_suppressions.cpp FindFile: a relative name that does not exist from the current
// directory is taken relative to the executable's directory.
void resolve_suppressions_path(const char* given) {
    set_file_path(given);
    if (given[0] == '/') return;
    // (the runtime's own open: the program's access() and open() are interposed)
    const int fd = file_open_at(AT_FDCWD, given, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        file_close(fd);
        return;
    }
    char exe[4096];
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return;
    exe[n] = 0;
    char* slash = std::strrchr(exe, '/');
    if (slash == nullptr) return;
    slash[1] = 0;
    Line l;
    l.s(exe).s(given);
    set_file_path(l.c_str());
}

void read_suppressions_file() {
    const int fd = file_open_at(AT_FDCWD, g_file_path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        g_file_errno = errno;
        return;
    }
    static char buffer[sizeof g_file_suppressions.text + 1];
    std::size_t got = 0;
    long r = 0;
    while (got < sizeof buffer && (r = file_read(fd, buffer + got, sizeof buffer - got)) > 0)
        got += static_cast<std::size_t>(r);
    const int read_errno = r < 0 ? errno : 0;
    file_close(fd);
    if (read_errno != 0) {
        g_file_errno = read_errno;
        return;
    }
    g_file_suppressions.set(buffer, got);
    if (g_file_suppressions.truncated) say_truncated("suppressions file", got - 1);
}

void write_file_lines() {
    if (g_file_path[0] == 0) return;
    Line l;
    if (g_file_errno != 0) {
        l.s(key::kTsanSuppressionsError)
            .s(" ")
            .u(static_cast<u64>(g_file_errno))
            .s(" ")
            .esc(g_file_path);
    } else {
        l.s(key::kTsanSuppressionsFile).s(" ").esc(g_file_path);
    }
    write_metadata_line(l);
}

template <std::size_t N> void capture(Captured<N>& into, const char* text, const char* what) {
    if (text == nullptr) return;
    into.set(text, std::strlen(text));
    if (into.truncated) say_truncated(what, N - 1);
}

} // namespace

void capture_tsan_settings() {
    if (__tsan_default_options != nullptr)
        capture(g_default_options, __tsan_default_options(), "__tsan_default_options()");
    capture(g_environment_options, runtime_getenv("TSAN_OPTIONS"), "TSAN_OPTIONS");
    if (__tsan_default_suppressions != nullptr)
        capture(g_default_suppressions, __tsan_default_suppressions(),
                "__tsan_default_suppressions()");
    char given[4096];
    if (suppressions_setting(given, sizeof given)) {
        resolve_suppressions_path(given);
        read_suppressions_file();
        if (g_file_errno != 0) {
            Line l;
            l.s("failed to read suppressions file '")
                .s(g_file_path)
                .s("' (errno ")
                .u(static_cast<u64>(g_file_errno))
                .s("): ThreadSanitizer would stop here; the program is traced without it");
            message(l.c_str());
        }
    }
    write_tsan_settings();
    g_on_initialize = reinterpret_cast<void (*)()>(dlsym(RTLD_DEFAULT, "__tsan_on_initialize"));
    g_on_finalize = reinterpret_cast<int (*)(int)>(dlsym(RTLD_DEFAULT, "__tsan_on_finalize"));
    dlerror(); // a failed lookup leaves no pending error for the program's dlerror()
}

void write_tsan_settings() {
    write_captured(key::kTsanDefaultOptions, g_default_options);
    write_captured(key::kTsanOptions, g_environment_options);
    write_captured(key::kTsanDefaultSuppressions, g_default_suppressions);
    write_file_lines();
    write_captured(key::kTsanSuppressions, g_file_suppressions);
}

void call_tsan_on_initialize() {
    if (g_on_initialize != nullptr) g_on_initialize();
}

void call_tsan_on_finalize() {
    // TSan passes whether it reported anything; firstrace reports after the run, so nothing
    // has failed yet. TSan exits with `exitcode` when the hook returns non-zero; firstrace
    // leaves the program's exit status alone (README, "What the runtime understands").
    static std::atomic<bool> called{false};
    if (g_on_finalize != nullptr && !called.exchange(true)) g_on_finalize(0);
}

} // namespace frt
