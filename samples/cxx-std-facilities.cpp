// The C++ standard library's threads and synchronization, correctly used: std::thread,
// std::async with futures, std::call_once, thread_local, a function-local static initialized
// by several threads at once, std::shared_ptr copies released on other threads, std::mutex and
// std::condition_variable. Heap blocks freed by one thread are reused by others throughout
// (the thread_local vectors are freed when their threads end).
#include <condition_variable>
#include <cstdio>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Config {
    std::vector<int> weights;
    explicit Config(int n) {
        for (int i = 0; i < n; ++i)
            weights.push_back(i + 1);
    }
};

// initialized by whichever thread gets there first; the others wait (__cxa_guard_*)
const Config& config() {
    static Config instance(16);
    return instance;
}

std::once_flag table_once;
std::vector<int>* table;
void build_table() {
    table = new std::vector<int>(64, 3);
}

thread_local std::vector<int> scratch; // each thread's own

std::mutex queue_mutex;
std::condition_variable queue_ready;
std::vector<std::string> queue;
bool queue_closed = false;

void producer(int id) {
    for (int i = 0; i < 20; ++i) {
        std::string item = "item " + std::to_string(id) + "." + std::to_string(i);
        {
            std::lock_guard<std::mutex> lock(queue_mutex);
            queue.push_back(std::move(item));
        }
        queue_ready.notify_one();
    }
}

long consumer(int expected) {
    long total = 0;
    for (int got = 0; got < expected; ++got) {
        std::unique_lock<std::mutex> lock(queue_mutex);
        queue_ready.wait(lock, [] { return !queue.empty() || queue_closed; });
        if (queue.empty()) break;
        std::string item = std::move(queue.back());
        queue.pop_back();
        lock.unlock();
        total += static_cast<long>(item.size());
    }
    return total;
}

long work(int id, std::shared_ptr<const Config> shared) {
    std::call_once(table_once, build_table);
    scratch.assign(32, id);
    long sum = 0;
    for (int w : config().weights)
        sum += w * scratch[static_cast<std::size_t>(w) % scratch.size()];
    for (int v : *table)
        sum += v;
    for (int w : shared->weights)
        sum += w;
    return sum;
}

} // namespace

int main() {
    auto shared = std::make_shared<const Config>(8);
    std::vector<std::future<long>> results;
    for (int i = 0; i < 4; ++i)
        results.push_back(std::async(std::launch::async, work, i, shared));
    std::vector<std::thread> threads;
    for (int i = 0; i < 3; ++i)
        threads.emplace_back(producer, i);
    std::future<long> consumed = std::async(std::launch::async, consumer, 60);
    shared.reset(); // the last reference goes away on whichever thread finishes last
    long sum = 0;
    for (auto& r : results)
        sum += r.get();
    for (auto& t : threads)
        t.join();
    {
        std::lock_guard<std::mutex> lock(queue_mutex);
        queue_closed = true;
    }
    queue_ready.notify_all();
    sum += consumed.get();
    std::printf("sum %ld\n", sum);
    delete table;
    return 0;
}
