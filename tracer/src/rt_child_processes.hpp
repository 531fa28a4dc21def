// The ends of a process's children, as its threads observe them (rt_child_processes.cpp).
#pragma once

#include <signal.h>
#include <sys/types.h>

#include "rt_internal.hpp"

namespace frt {
// A wait call at pc returned the child `pid` with `status` (wait, waitpid, wait3, wait4):
// a terminated child acquires what the threads did before creating children.
void child_waited(u64 pc, pid_t pid, const int* status);
// waitid returned 0 with `info`.
void child_waited(u64 pc, const siginfo_t* info);
} // namespace frt
