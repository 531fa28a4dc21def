// C++ locks in memory an earlier thread gave back: their constructors are constexpr, no init
// call starts them. Four pairs of detached std::threads run one after the other (main only
// sleeps between them, which orders nothing); the second of a pair takes a lock where the
// first one's was and writes a global the first one wrote. The lock is a new one: its first
// acquire is not ordered after the old lock's last release, so each pair's writes race.
// - a `std::mutex` and a `std::condition_variable` in a `new`ed object (the second thread gets
//   the first one's arena back, and the object's bytes with it), waited on with a timeout;
// - a function-local `std::mutex` on glibc's cached stack;
// - a `std::shared_mutex` in a `new`ed object, written under the exclusive lock, then read
//   under the shared one;
// - a `std::atomic<bool>` spin lock in a `new`ed object.
// firstrace before: one object per address, each second thread's lock acquired the first
// one's release and hid the race. clang 14 ThreadSanitizer reports the three heap races, not
// the stack one.
// BUILD-FLAGS: -std=c++17
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <shared_mutex>
#include <thread>

static long in_object, on_stack, in_table, under_spin;

struct Guarded {
    std::mutex lock;
    std::condition_variable changed;
    char payload[64] = {};
};
struct Table {
    std::shared_mutex lock;
    char payload[96] = {};
};
struct Spin {
    std::atomic<bool> busy{false};
    char payload[96] = {};
};

static std::atomic<void*> addresses[4][2]; // printed by main (relaxed: orders nothing)

static void note(int pair, int round, void* address) {
    addresses[pair][round].store(address, std::memory_order_relaxed);
}

static void wait_a_little(Guarded& g) {
    std::unique_lock<std::mutex> hold(g.lock);
    g.changed.wait_for(hold, std::chrono::milliseconds(1)); // times out: nobody notifies
}

static void object_worker(int round) {
    auto* g = new Guarded;
    note(0, round, g);
    if (round == 0) {
        in_object += 1; // RACE
        wait_a_little(*g);
    } else {
        wait_a_little(*g);
        in_object += 2; // RACE BUG in object_worker NAMED in_object
    }
    delete g;
}

static __attribute__((noinline)) void stack_worker(int round) {
    std::mutex lock; // where the earlier worker's was
    note(1, round, &lock);
    if (round == 0) {
        on_stack += 1; // RACE
        std::lock_guard<std::mutex> hold(lock);
    } else {
        { std::lock_guard<std::mutex> hold(lock); }
        on_stack += 2; // RACE BUG in stack_worker NAMED on_stack
    }
}

static void table_worker(int round) {
    auto* t = new Table;
    note(2, round, t);
    if (round == 0) {
        in_table += 1; // RACE
        std::unique_lock<std::shared_mutex> hold(t->lock);
    } else {
        { std::shared_lock<std::shared_mutex> hold(t->lock); }
        in_table += 2; // RACE
    }
    delete t;
}

static void spin(Spin& s) {
    while (s.busy.exchange(true, std::memory_order_acquire))
        ;
    s.busy.store(false, std::memory_order_release);
}

static void spin_worker(int round) {
    auto* s = new Spin;
    note(3, round, s);
    if (round == 0) {
        under_spin += 1; // RACE
        spin(*s);
    } else {
        spin(*s);
        under_spin += 2; // RACE
    }
    delete s;
}

int main() {
    void (*const workers[4])(int) = {stack_worker, object_worker, table_worker, spin_worker};
    for (auto* worker : workers)
        for (int round = 0; round < 2; ++round) { // one after the other, never joined
            std::thread(worker, round).detach();
            // the worker ends meanwhile: its stack and arena go back
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    for (auto& pair : addresses)
        std::printf("%s ", pair[0].load() == pair[1].load() ? "reused" : "not-reused");
    std::printf("\n");
    return 0;
}
