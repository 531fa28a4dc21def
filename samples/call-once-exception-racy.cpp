// std::call_once whose callable throws: only a later execution of the callable is synchronized
// with the failed one. The racy main reads the attempt count the worker's failed execution
// writes without making a call_once of its own first (it waits for the failure through a relaxed
// flag, which orders nothing).
#include <atomic>
#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace {
std::once_flag connected;
int attempts;
std::atomic<bool> tried{false};
std::atomic<bool> failed{false}; // relaxed: orders nothing

void connect(bool fail) {
    ++attempts; // RACE
    if (fail) throw std::runtime_error("refused");
}
} // namespace

int main() {
    std::thread worker([] {
        tried.store(true, std::memory_order_relaxed);
        try {
            std::call_once(connected, connect, true);
        } catch (const std::exception& e) {
            std::printf("worker: %s\n", e.what());
        }
        failed.store(true, std::memory_order_relaxed);
    });
    while (!tried.load(std::memory_order_relaxed)) {
    }
    const int seen = attempts; // RACE
    // main's own call_once only after the worker's failed one: had it come first, it would
    // succeed and the worker's connect would never run (no race in that run)
    while (!failed.load(std::memory_order_relaxed)) {
    }
    std::call_once(connected, connect, false);
    std::printf("%d %d\n", seen, attempts);
    worker.join();
    return 0;
}
