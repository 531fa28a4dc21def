// C++20 synchronization (libstdc++ builds it on atomics and futex): std::latch,
// std::barrier, std::counting_semaphore, std::atomic wait/notify, std::shared_mutex,
// std::timed_mutex.
#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdio>
#include <latch>
#include <mutex>
#include <semaphore>
#include <shared_mutex>
#include <thread>
#include <vector>

int main() {
    int before_latch[3] = {};
    std::latch started(3);
    int phase[3] = {};
    int seen[3] = {};
    std::barrier sync(3);
    std::counting_semaphore<3> slots(0);
    int produced = 0;
    std::atomic<int> ticket{0};
    int ticket_data = 0;
    std::shared_mutex table_lock;
    int table = 0;
    std::timed_mutex timed;
    long timed_total = 0;
    std::vector<std::thread> threads;
    for (int id = 0; id < 3; ++id) {
        threads.emplace_back([&, id] {
            before_latch[id] = id + 1;
            started.count_down();
            phase[id] = id;
            sync.arrive_and_wait();
            seen[id] = phase[(id + 1) % 3];
            sync.arrive_and_wait();
            phase[id] = 0;
            if (id == 0) {
                produced = 5;
                slots.release();
                ticket_data = 9;
                ticket.store(1, std::memory_order_release);
                ticket.notify_one();
            }
            {
                std::shared_lock<std::shared_mutex> r(table_lock);
                seen[id] += table;
            }
            if (timed.try_lock_for(std::chrono::seconds(10))) {
                ++timed_total;
                timed.unlock();
            }
        });
    }
    started.wait();
    int sum = before_latch[0] + before_latch[1] + before_latch[2];
    slots.acquire();
    sum += produced;
    ticket.wait(0, std::memory_order_acquire);
    sum += ticket_data;
    {
        std::unique_lock<std::shared_mutex> w(table_lock);
        table = 1;
    }
    for (auto& t : threads)
        t.join();
    std::printf("%d %d %ld\n", sum, seen[0], timed_total);
}
