// Opening input files named by a user or by an untrusted trace (issue 13): only regular files
// are read, so that a FIFO or a character device (/dev/zero) in place of a stream, a metadata
// file or a source file is refused at once instead of hanging or reading forever.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

namespace firstrace {

enum class Symlinks { Follow, Refuse };

// A descriptor of `path` opened read-only, without blocking (O_NONBLOCK: opening a FIFO does
// not wait for a writer) and without becoming a controlling terminal; InputError naming the
// file when it cannot be opened or is not a regular file. With Symlinks::Refuse a symbolic
// link as the last component is refused (O_NOFOLLOW).
class RegularFile {
  public:
    RegularFile(const std::string& path, Symlinks symlinks);
    ~RegularFile();
    RegularFile(const RegularFile&) = delete;
    RegularFile& operator=(const RegularFile&) = delete;

    int fd() const { return fd_; }
    std::uint64_t size() const { return size_; }
    // The whole file; InputError when it is larger than `max_bytes` or a read fails.
    std::string read_all(std::uint64_t max_bytes) const;
    // The next `n` bytes into `out` (fewer only at the end of the file): returns how many were
    // read. InputError when a read fails.
    std::size_t read_next(void* out, std::size_t n) const;
    // A stdio stream over the descriptor (which it then owns), for line-by-line reading.
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> release_to_stdio();

  private:
    std::string path_;
    int fd_ = -1;
    std::uint64_t size_ = 0;
};

} // namespace firstrace
