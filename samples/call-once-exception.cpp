// std::call_once whose callable throws (an exceptional execution, C++20
// [thread.once.callonce]): the flag stays unset, the next call runs the callable again, and
// that execution is synchronized with the failed one. A worker's first attempt to open a
// "connection" fails after recording the attempt; main's call (made while the worker's may still
// run, or after it) retries and reads the attempt count and the error text the failed attempt
// wrote. libstdc++ runs call_once through pthread_once; the runtime sees the exception leave the
// routine (tracer/src/rt_once_unwind.c). clang 14 ThreadSanitizer hangs on this program (its
// pthread_once does not let the next caller in after an exception).
#include <cstdio>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <unistd.h>

namespace {
std::once_flag connected;
int attempts;
char last_error[32];
int connection;

void connect(bool fail) {
    ++attempts;
    if (fail) {
        std::strcpy(last_error, "refused");
        usleep(20000); // main's call waits for this execution
        throw std::runtime_error(last_error);
    }
    connection = 40 + attempts;
}
} // namespace

int main() {
    std::thread worker([] {
        try {
            std::call_once(connected, connect, true);
        } catch (const std::exception& e) {
            std::printf("worker: %s\n", e.what());
        }
    });
    usleep(5000);
    std::call_once(connected, connect, false);
    std::printf("connection %d after %d attempts (%s)\n", connection, attempts, last_error);
    worker.join();
    return 0;
}
