#include "rt_environment.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "rt_system.hpp"

namespace frt {
namespace {

// Longer values (a trace directory name, a number) are not the runtime's.
char g_value[4096];

// Streams /proc/self/environ ("NAME=value\0...") looking for `name`'s entry.
const char* scan_initial_environment(const char* name) {
    const int fd = file_open_at(AT_FDCWD, "/proc/self/environ", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return nullptr;
    const std::size_t name_length = std::strlen(name);
    char chunk[1024];
    std::size_t at = 0;     // position within the current entry
    bool matching = true;   // the entry so far equals name's prefix (then '=')
    std::size_t length = 0; // of the value copied
    bool found = false, done = false;
    while (!done) {
        const long n = file_read(fd, chunk, sizeof chunk);
        if (n <= 0) break;
        for (long i = 0; i < n && !done; ++i) {
            const char c = chunk[i];
            if (c == '\0') {
                done = found;
                at = 0;
                matching = true;
                continue;
            }
            if (found) {
                if (length + 1 < sizeof g_value) g_value[length++] = c;
            } else if (matching) {
                if (at < name_length)
                    matching = c == name[at];
                else if (at == name_length)
                    found = matching = c == '=';
            }
            ++at;
        }
    }
    file_close(fd);
    if (!found) return nullptr;
    g_value[length] = '\0';
    return g_value;
}

} // namespace

const char* runtime_getenv(const char* name) {
    if (environ != nullptr) return getenv(name);
    return scan_initial_environment(name);
}

} // namespace frt
