// C++20 synchronization as libstdc++ 12 implements it (built with -std=c++20), each guarding
// data that two or more threads share, race-free:
//   std::latch             workers fill their slots, count down; main waits, then reads them
//   std::barrier           phases: write own cell, arrive_and_wait, read a neighbour's cell
//                          (the completion function runs between phases, reads every cell)
//   std::counting_semaphore  a two-slot pool: acquire a token, use the slot it names, release
//   std::binary_semaphore  a hand-off: the producer fills, releases; the consumer acquires
//   std::atomic::wait / notify_one / notify_all  a flag waited on (futex in libstdc++)
//   std::jthread + std::stop_token  a worker polls stop_requested(); a stop_callback; the
//                          destructor requests stop and joins
//   std::shared_mutex      readers under shared_lock, a writer under unique_lock
//   std::timed_mutex       try_lock_for (pthread_mutex_clocklock in libstdc++ 12)
//   std::condition_variable::wait_for (pthread_cond_clockwait)
//   std::condition_variable_any with a std::shared_mutex's unique_lock
// libstdc++'s header code is instrumented (the atomics these are built on are seen as the C++
// memory model says); the futex system calls behind wait/notify order nothing by themselves.
// BUILD-FLAGS: -std=c++20
#include <atomic>
#include <barrier>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <latch>
#include <mutex>
#include <semaphore>
#include <shared_mutex>
#include <stop_token>
#include <thread>
#include <vector>

namespace {

constexpr int kWorkers = 3;

int latch_slots[kWorkers];
void with_latch() {
    std::latch done(kWorkers);
    std::vector<std::thread> ts;
    for (int i = 0; i < kWorkers; ++i)
        ts.emplace_back([&done, i] {
            latch_slots[i] = i + 1;
            done.count_down();
        });
    done.wait();
    int sum = 0;
    for (int v : latch_slots)
        sum += v;
    for (auto& t : ts)
        t.join();
    std::printf("latch %d\n", sum);
}

int cells[kWorkers];
int phase_sums[6]; // 3 rounds of 2 phases
void with_barrier() {
    int phase = 0;
    std::barrier sync(kWorkers, [&]() noexcept {
        for (int v : cells)
            phase_sums[phase] += v;
        ++phase;
    });
    std::vector<std::thread> ts;
    for (int i = 0; i < kWorkers; ++i)
        ts.emplace_back([&sync, i] {
            for (int round = 0; round < 3; ++round) {
                cells[i] = round * 10 + i;
                sync.arrive_and_wait();
                volatile int seen = cells[(i + 1) % kWorkers];
                (void)seen;
                sync.arrive_and_wait();
            }
        });
    for (auto& t : ts)
        t.join();
    std::printf("barrier %d %d\n", phase_sums[0], phase);
}

int pool[2];
std::counting_semaphore<2> tokens(2);
std::mutex pool_lock;
bool slot_busy[2];
void with_counting_semaphore() {
    std::vector<std::thread> ts;
    for (int i = 0; i < 4; ++i)
        ts.emplace_back([] {
            for (int n = 0; n < 50; ++n) {
                tokens.acquire();
                int slot;
                {
                    std::lock_guard<std::mutex> g(pool_lock);
                    slot = slot_busy[0] ? 1 : 0;
                    slot_busy[slot] = true;
                }
                pool[slot] += 1;
                {
                    std::lock_guard<std::mutex> g(pool_lock);
                    slot_busy[slot] = false;
                }
                tokens.release();
            }
        });
    for (auto& t : ts)
        t.join();
    std::printf("counting_semaphore %d\n", pool[0] + pool[1]);
}

int handed[2];
std::binary_semaphore filled(0);
std::binary_semaphore emptied(0);
void with_binary_semaphore() {
    std::thread producer([] {
        for (int n = 0; n < 20; ++n) {
            handed[n % 2] = n;
            filled.release();
            emptied.acquire();
        }
    });
    int sum = 0;
    for (int n = 0; n < 20; ++n) {
        filled.acquire();
        sum += handed[n % 2];
        emptied.release();
    }
    producer.join();
    std::printf("binary_semaphore %d\n", sum);
}

int message;
std::atomic<int> ready{0};
void with_atomic_wait() {
    std::thread waiter([] {
        ready.wait(0);
        std::printf("atomic wait %d\n", message);
        message = 0;
        ready.store(2);
        ready.notify_all();
    });
    message = 42;
    ready.store(1);
    ready.notify_one();
    ready.wait(1);
    message += 1;
    waiter.join();
}

int progress;
int stopped_at;
void with_jthread() {
    std::atomic<bool> started{false};
    {
        std::jthread worker([&started](std::stop_token stop) {
            std::stop_callback on_stop(stop, [] { stopped_at = 1; });
            while (!stop.stop_requested()) {
                ++progress;
                started.store(true);
                started.notify_one(); // (wait needs a notify: libstdc++ sleeps on a futex)
                std::this_thread::yield();
            }
        });
        started.wait(false);
    } // request_stop + join
    std::printf("jthread %d %d\n", progress > 0, stopped_at);
}

int table[4];
std::shared_mutex table_lock;
void with_shared_mutex() {
    std::vector<std::thread> ts;
    for (int i = 0; i < 3; ++i)
        ts.emplace_back([i] {
            for (int n = 0; n < 100; ++n) {
                if (i == 0) {
                    std::unique_lock<std::shared_mutex> w(table_lock);
                    table[n % 4] += 1;
                } else {
                    std::shared_lock<std::shared_mutex> r(table_lock);
                    volatile int v = table[n % 4];
                    (void)v;
                }
            }
        });
    for (auto& t : ts)
        t.join();
    std::printf("shared_mutex %d\n", table[0]);
}

int timed_total;
std::timed_mutex timed;
void with_timed_mutex() {
    std::vector<std::thread> ts;
    for (int i = 0; i < 2; ++i)
        ts.emplace_back([] {
            for (int n = 0; n < 50; ++n) {
                while (!timed.try_lock_for(std::chrono::milliseconds(1))) {
                }
                ++timed_total;
                timed.unlock();
            }
        });
    for (auto& t : ts)
        t.join();
    std::printf("timed_mutex %d\n", timed_total);
}

int queued;
bool has_item;
std::mutex cv_lock;
std::condition_variable cv;
std::shared_mutex any_lock;
std::condition_variable_any cv_any;
bool any_ready;
int any_value;
void with_condition_variables() {
    std::thread consumer([] {
        std::unique_lock<std::mutex> l(cv_lock);
        while (!cv.wait_for(l, std::chrono::milliseconds(2), [] { return has_item; })) {
        }
        queued += 1;
    });
    std::thread any_consumer([] {
        std::unique_lock<std::shared_mutex> l(any_lock);
        cv_any.wait(l, [] { return any_ready; });
        any_value += 1;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    {
        std::lock_guard<std::mutex> g(cv_lock);
        queued = 10;
        has_item = true;
    }
    cv.notify_one();
    {
        std::unique_lock<std::shared_mutex> g(any_lock);
        any_value = 20;
        any_ready = true;
    }
    cv_any.notify_all();
    consumer.join();
    any_consumer.join();
    std::printf("condition variables %d %d\n", queued, any_value);
}

} // namespace

int main() {
    with_latch();
    with_barrier();
    with_counting_semaphore();
    with_binary_semaphore();
    with_atomic_wait();
    with_jthread();
    with_shared_mutex();
    with_timed_mutex();
    with_condition_variables();
    return 0;
}
