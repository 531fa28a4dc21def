#include "input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "firstrace/errors.hpp"

namespace firstrace {

RegularFile::RegularFile(const std::string& path, Symlinks symlinks) : path_(path) {
    int flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
    if (symlinks == Symlinks::Refuse) flags |= O_NOFOLLOW;
    fd_ = ::open(path.c_str(), flags);
    if (fd_ < 0) {
        if (errno == ELOOP && symlinks == Symlinks::Refuse)
            throw InputError(path, 0, "is a symbolic link (refused: the tracer writes none)");
        throw InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
    }
    struct stat st {};
    if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
        const bool dir = S_ISDIR(st.st_mode);
        ::close(fd_);
        fd_ = -1;
        throw InputError(path, 0,
                         dir ? "is a directory, not a file"
                             : "is not a regular file (a FIFO, socket or device); refused");
    }
    // Reads of a regular file never block; clear the flag so stdio behaves as usual.
    ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
    size_ = static_cast<std::uint64_t>(st.st_size);
}

RegularFile::~RegularFile() {
    if (fd_ >= 0) ::close(fd_);
}

std::string RegularFile::read_all(std::uint64_t max_bytes) const {
    if (size_ > max_bytes)
        throw InputError(path_, 0,
                         "too large (" + std::to_string(size_) + " bytes, at most " +
                             std::to_string(max_bytes) + ")");
    std::string bytes;
    bytes.reserve(static_cast<std::size_t>(size_));
    char buffer[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd_, buffer, sizeof buffer);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw InputError(path_, 0, std::string("read error: ") + std::strerror(errno));
        }
        if (n == 0) break;
        if (bytes.size() + static_cast<std::size_t>(n) > max_bytes)
            throw InputError(
                path_, 0, "grew beyond " + std::to_string(max_bytes) + " bytes while being read");
        bytes.append(buffer, static_cast<std::size_t>(n));
    }
    return bytes;
}

std::size_t RegularFile::read_next(void* out, std::size_t n) const {
    std::size_t done = 0;
    while (done < n) {
        const ssize_t got = ::read(fd_, static_cast<char*>(out) + done, n - done);
        if (got < 0) {
            if (errno == EINTR) continue;
            throw InputError(path_, 0, std::string("read error: ") + std::strerror(errno));
        }
        if (got == 0) break;
        done += static_cast<std::size_t>(got);
    }
    return done;
}

std::unique_ptr<std::FILE, int (*)(std::FILE*)> RegularFile::release_to_stdio() {
    std::FILE* f = ::fdopen(fd_, "r");
    if (f == nullptr)
        throw InputError(path_, 0, std::string("cannot open: ") + std::strerror(errno));
    fd_ = -1;
    return {f, &std::fclose};
}

} // namespace firstrace
