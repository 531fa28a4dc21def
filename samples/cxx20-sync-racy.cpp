// Misused C++20 synchronization (libstdc++ 12, -std=c++20): each section writes shared data
// on the wrong side of its synchronization. A worker writes its slot after counting the latch
// down; a barrier participant reads its neighbour's cell in the same phase the neighbour writes
// it; a producer changes the hand-off buffer after releasing the binary semaphore; a notifier
// writes the message after the atomic store and notify that the waiter waits for; a reader
// writes under a shared (reader) lock of a std::shared_mutex; main reads a std::jthread's
// progress while it runs; a thread whose try_lock_for failed counts anyway.
// BUILD-FLAGS: -std=c++20
#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdio>
#include <latch>
#include <mutex>
#include <semaphore>
#include <shared_mutex>
#include <stop_token>
#include <thread>

namespace {

int latch_slots[2];
void with_latch() {
    std::latch done(2);
    std::thread first([&done] {
        latch_slots[0] = 1;
        done.count_down();
    });
    std::thread second([&done] {
        done.count_down();
        latch_slots[1] = 2; // RACE
    });
    done.wait();
    const int sum = latch_slots[0] + latch_slots[1]; // RACE
    first.join();
    second.join();
    std::printf("latch %d\n", sum);
}

int cells[2];
void with_barrier() {
    std::barrier sync(2);
    std::thread left([&sync] {
        cells[0] = 1; // RACE
        sync.arrive_and_wait();
    });
    std::thread right([&sync] {
        volatile int seen = cells[0]; // RACE (the neighbour writes it in this phase)
        (void)seen;
        sync.arrive_and_wait();
    });
    left.join();
    right.join();
}

int handed;
std::binary_semaphore filled(0);
void with_binary_semaphore() {
    std::thread producer([] {
        handed = 1;
        filled.release();
        handed = 2; // RACE
    });
    filled.acquire();
    const int got = handed; // RACE
    producer.join();
    std::printf("binary_semaphore %d\n", got);
}

int message;
std::atomic<int> ready{0};
void with_atomic_wait() {
    std::thread waiter([] {
        ready.wait(0);
        std::printf("atomic wait %d\n", message); // RACE
    });
    ready.store(1);
    ready.notify_one();
    message = 42; // RACE
    waiter.join();
}

int table;
std::shared_mutex table_lock;
void with_shared_mutex() {
    std::thread readers[2];
    for (auto& r : readers)
        r = std::thread([] {
            std::shared_lock<std::shared_mutex> l(table_lock);
            table += 1; // RACE (a write under the reader lock)
        });
    for (auto& r : readers)
        r.join();
}

int progress;
void with_jthread() {
    std::atomic<bool> started{false};
    std::jthread worker([&started](std::stop_token stop) {
        started.store(true);
        started.notify_one();
        do {
            ++progress; // RACE
            std::this_thread::yield();
        } while (!stop.stop_requested());
    });
    started.wait(false);
    std::printf("jthread %d\n", progress > 0); // RACE
}

int timed_total;
std::timed_mutex timed;
void with_timed_mutex() {
    timed.lock();
    std::thread impatient([] {
        if (!timed.try_lock_for(std::chrono::milliseconds(1))) {
            ++timed_total; // RACE (counted without the lock)
        } else {
            timed.unlock();
        }
    });
    ++timed_total; // RACE
    impatient.join();
    timed.unlock();
}

} // namespace

int main() {
    with_latch();
    with_barrier();
    with_binary_semaphore();
    with_atomic_wait();
    with_shared_mutex();
    with_jthread();
    with_timed_mutex();
    return 0;
}
