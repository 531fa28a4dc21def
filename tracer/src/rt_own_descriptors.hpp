// The runtime's own descriptors (the trace directory, the metadata file, each thread's stream,
// the spare stream): kept out of the program's way as Valgrind keeps its own (rt_own_descriptors
// .cpp has the decisions). Each lives in a holder (an atomic int the runtime reads whenever it
// uses it), so that the runtime can move it to another number when the program takes its number.
#pragma once

#include <atomic>

#include "rt_internal.hpp"

namespace frt {

// fd was just opened by the runtime: moves it to the runtime's band of numbers (below the
// descriptor limit, close-on-exec), registers it and stores the number it now has in holder.
// Returns that number (fd itself when no number of the band is free; -1 when fd < 0).
// `io_lock`: a lock the runtime holds while it writes through the descriptor (a thread's stream:
// its io_lock), which a move of the descriptor takes so that no write in flight goes to the
// number the program is taking over.
int own_descriptor(std::atomic<int>& holder, int fd, std::atomic<u32>* io_lock = nullptr);
// Creates the trace file `name` in the trace directory (file_create_at) as a runtime descriptor
// kept in holder, on the band. Between the open, which takes the lowest free number, and the
// move to the band, a thread of the program may close that number or put a file of its own on
// it (a close-all loop, a dup2 onto every number it listed), and the directory's own number may
// move: the number is checked to name the file after its registration (a dup2 from then on
// moves it), and otherwise left to the program and the file opened again, up to four times (a
// program's dup2 that began before the registration and lands after the check is not seen: a
// window of a few instructions in the program's thread). band_only: a file that cannot be
// placed in the band is closed (-1): the runtime takes none of the program's numbers for a
// spare. -1 with errno EMFILE/ENFILE when the kernel has no number (a full table).
struct TraceFile {
    int (*directory)();
    const char* name;
    int create_flags;
    bool band_only;
};
int create_own_trace_file(std::atomic<int>& holder, const TraceFile& file,
                          std::atomic<u32>* io_lock = nullptr);
// The runtime's descriptor in `from` is now kept in `to` (from becomes -1), written under
// io_lock (own_descriptor); returns it.
int transfer_own_descriptor(std::atomic<int>& from, std::atomic<int>& to,
                            std::atomic<u32>* io_lock = nullptr);
// Unregisters and closes the runtime's descriptor in holder; holder becomes -1.
void close_own_descriptor(std::atomic<int>& holder);
// Unregisters the runtime's descriptor in holder without closing it (a fork child's copy that
// the child closed already); holder becomes -1.
void forget_own_descriptor(std::atomic<int>& holder);
// True when fd is one of the runtime's descriptors (one load).
bool is_own_descriptor(int fd);
// The program is about to make fd refer to something else or close it behind the runtime's
// back (dup2/dup3 onto fd, a raw close announced by its hook): when fd is the runtime's, moves
// the runtime's descriptor to another number first. False when fd is the runtime's and could not
// be moved (no free number): the program's call must then fail (EMFILE) rather than take it.
bool vacate_own_descriptor(int fd);
// close_range(first, last, flags) on the program's behalf: the real call on each run of
// [first, last] between the runtime's descriptors. The result of the real call.
int close_range_sparing_own(unsigned first, unsigned last, int flags);
// Calls f(fd) for each descriptor in [first, last] that is open and not the runtime's
// (/proc/self/fd; nothing when it cannot be read). For modelling the closes of close_range.
template <class F> void for_each_program_descriptor(unsigned first, unsigned last, F&& f);
// The fork child: the registry's lock may be held by a thread the child does not have.
void own_descriptors_after_fork();

namespace detail {
// Fills fds[0, n) with open descriptors in [first, last] (ascending), starting after `after`;
// returns n (< capacity: the listing is complete).
int list_open_descriptors(unsigned first, unsigned last, int after, int* fds, int capacity);
} // namespace detail

template <class F> void for_each_program_descriptor(unsigned first, unsigned last, F&& f) {
    int fds[256];
    int after = -1;
    for (;;) {
        const int n = detail::list_open_descriptors(first, last, after, fds, 256);
        for (int i = 0; i < n; ++i)
            if (!is_own_descriptor(fds[i])) f(fds[i]);
        if (n < 256) return;
        after = fds[n - 1];
    }
}

} // namespace frt
