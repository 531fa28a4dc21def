// The C++ facilities of cxx-std-facilities.cpp with two mistakes: the tasks started with
// std::async count their work in a shared total without the mutex, and they append to the
// function-local static registry (safely initialized once) without any lock.
//
// The tasks wait for `go`, a relaxed flag (no synchronization) that main sets once all three
// are started: a task that ended before main started the next one would free its thread state
// first, main's allocation of the next one would reuse that block, and C11 7.22.3p2 makes the
// free synchronize with that allocation, ordering the two tasks in that run (1 run in 16).
#include <atomic>
#include <cstdio>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace {

struct Registry {
    int entries[64] = {};
    int count = 0;
};

Registry& registry() {
    static Registry instance; // the initialization itself is synchronized (__cxa_guard_*)
    return instance;
}

std::once_flag table_once;
std::vector<int>* table;
long total;
std::atomic<bool> go;

void build_table() {
    table = new std::vector<int>(32, 2);
}

long work(int id, std::shared_ptr<const std::vector<int>> weights) {
    while (!go.load(std::memory_order_relaxed))
        std::this_thread::yield();
    std::call_once(table_once, build_table);
    long sum = 0;
    for (int v : *table)
        sum += v * id;
    for (int w : *weights)
        sum += w;
    Registry& r = registry();
    r.entries[id] = static_cast<int>(sum); // distinct elements: no race
    r.count = r.count + 1;                 // RACE
    total += sum;                          // RACE
    return sum;
}

} // namespace

int main() {
    auto weights = std::make_shared<const std::vector<int>>(8, 5);
    std::vector<std::future<long>> results;
    for (int i = 0; i < 3; ++i)
        results.push_back(std::async(std::launch::async, work, i, weights));
    go.store(true, std::memory_order_relaxed);
    weights.reset();
    long sum = 0;
    for (auto& r : results)
        sum += r.get();
    std::printf("sum %ld total %ld entries %d\n", sum, total, registry().count);
    delete table;
    return 0;
}
