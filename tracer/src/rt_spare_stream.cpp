// A thread's stream file is created when the thread starts (rt_thread_registry.cpp). A program
// may by then have lowered RLIMIT_NOFILE and used every number below it (a test of its EMFILE
// handling, a server at its limit): the kernel gives no descriptor, and the thread's events
// would be lost. So the runtime keeps four stream files created ahead of need,
// `.spare-stream-K` in the trace directory (the reader reads only stream-N.frc files), open on
// numbers of its band (rt_own_descriptors.cpp); a thread that gets no descriptor renames one to
// its stream's name (a rename needs no descriptor), and the next stream created while numbers
// are free replaces it. A fifth thread starting at a full table is not traced (the trace says
// it is truncated). The process's start makes the spares; a fork child makes its own when it
// starts its first thread (a child that only runs and exits makes no files). A trace whose
// process was killed keeps its empty spares.
#include "rt_spare_stream.hpp"
#include "rt_metadata.hpp"
#include "rt_own_descriptors.hpp"
#include "rt_system.hpp"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/syscall.h>

namespace frt {

namespace {
constexpr int kSpares = 4;
std::atomic<int> g_spares[kSpares] = {-1, -1, -1, -1};
std::atomic<bool> g_preparing{false};

struct SpareName {
    char text[24] = ".spare-stream-0";
    explicit SpareName(int k) { text[14] = static_cast<char>('0' + k); }
};
} // namespace

void spare_stream_prepare() {
    if (g_preparing.exchange(true)) return;
    const int dir = trace_directory_fd();
    // (EEXIST: a thread that took that spare has not renamed it yet, and prepares after)
    for (int k = 0; k < kSpares && dir >= 0; ++k) {
        if (g_spares[k].load() >= 0) continue;
        const SpareName spare(k);
        create_own_trace_file(g_spares[k], {trace_directory_fd, spare.text, 0, true});
    }
    g_preparing.store(false);
}

int spare_stream_take(const char* name, std::atomic<int>& holder, std::atomic<u32>* io_lock) {
    const int dir = trace_directory_fd();
    for (int k = 0; k < kSpares; ++k) {
        std::atomic<int> taken{-1};
        if (transfer_own_descriptor(g_spares[k], taken) < 0) continue;
        const SpareName spare(k);
        if (system_call(SYS_renameat2, dir, spare.text, dir, name, RENAME_NOREPLACE) == 0)
            return transfer_own_descriptor(taken, holder, io_lock);
        system_call(SYS_unlinkat, dir, spare.text, 0);
        close_own_descriptor(taken);
    }
    return -1;
}

void spare_stream_after_fork() {
    for (std::atomic<int>& spare : g_spares)
        close_own_descriptor(spare);
    g_preparing.store(false);
}

void spare_stream_remove() {
    const int dir = trace_directory_fd();
    for (int k = 0; k < kSpares; ++k) {
        if (g_spares[k].load() < 0) continue;
        system_call(SYS_unlinkat, dir, SpareName(k).text, 0);
        close_own_descriptor(g_spares[k]);
    }
}

} // namespace frt
