// Whether an exec will fail at the kernel's first checks (rt_exec_outcome.cpp), so that the
// runtime finishes the trace only before an exec that replaces the image (rt_exec.cpp).
#pragma once

namespace frt {

// execve(path): the name does not resolve to a regular file that this process may execute.
bool exec_of_path_fails(const char* path);
// fexecve(fd): the descriptor is not a regular file that this process may execute.
bool exec_of_descriptor_fails(int fd);
// execveat(dir, path, flags): as execve for path relative to dir (AT_EMPTY_PATH with an empty
// path: as fexecve; AT_SYMLINK_NOFOLLOW: a symbolic link fails, ELOOP).
bool exec_at_fails(int dir, const char* path, int flags);
// execvp/execvpe(file): as execve for a name with a slash; else no directory of PATH (the
// caller's environment; glibc's default when unset) holds such a file.
bool exec_search_fails(const char* file);

} // namespace frt
