// std::promise::set_value makes the future ready at once, before the thread's thread_local
// objects are destroyed: the racy worker uses set_value where it needed
// set_value_at_thread_exit, so main's read after get() races with the destructor's write.
#include <cstdio>
#include <future>
#include <thread>

namespace {
int summary; // written by the thread_local destructor

struct Log {
    bool used = false;
    int lines = 0;
    ~Log() {
        if (used) summary = lines * 100; // RACE
    }
};
thread_local Log thread_log;
} // namespace

int main() {
    std::promise<int> promise;
    std::future<int> value = promise.get_future();
    std::thread worker([p = std::move(promise)]() mutable {
        thread_log.used = true;
        thread_log.lines = 3;
        p.set_value(1);
    });
    value.wait();
    const int seen = summary; // RACE
    worker.join();
    std::printf("%d %d\n", value.get(), seen);
    return 0;
}
