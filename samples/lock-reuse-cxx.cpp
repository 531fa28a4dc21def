// C++ locks in memory an earlier thread gave back, used in order: four kinds of lock, each in
// two rounds that main joins one after the other. In each round an owner makes its lock (a
// `std::mutex` with a `std::condition_variable` in a `new`ed object, a function-local
// `std::mutex` on its stack, a `std::shared_mutex` in a `new`ed object, a `std::atomic<bool>`
// spin lock in a `new`ed object) where the previous round's was (the dead owner's arena,
// glibc's cached stack), starts a helper, and both update a total under the lock (the helper
// waits on the condition variable for the owner's update). The second round's lock is a new
// one (lock-reuse-cxx-racy.cpp), and its operations still order the owner and its helper,
// which nothing else orders after the helper's start. No race.
// BUILD-FLAGS: -std=c++17
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <shared_mutex>
#include <thread>

static long in_object, on_stack, in_table, under_spin, read_back;

struct Guarded {
    std::mutex lock;
    std::condition_variable changed;
    bool owner_done = false;
};
struct Table {
    std::shared_mutex lock;
    char payload[96] = {};
};
struct Spin {
    std::atomic<bool> busy{false};
    char payload[96] = {};
};

static void* addresses[4][2]; // read by main after the joins

static void object_owner(int round) {
    auto* g = new Guarded;
    addresses[0][round] = g;
    std::thread helper([g] {
        std::unique_lock<std::mutex> hold(g->lock);
        g->changed.wait(hold, [g] { return g->owner_done; });
        in_object += 2;
    });
    {
        std::lock_guard<std::mutex> hold(g->lock);
        in_object += 1;
        g->owner_done = true;
    }
    g->changed.notify_one();
    helper.join();
    delete g;
}

static __attribute__((noinline)) void stack_owner(int round) {
    std::mutex lock; // where the earlier owner's was
    addresses[1][round] = &lock;
    std::thread helper([&lock] {
        std::lock_guard<std::mutex> hold(lock);
        on_stack += 2;
    });
    {
        std::lock_guard<std::mutex> hold(lock);
        on_stack += 1;
    }
    helper.join();
}

static void table_owner(int round) {
    auto* t = new Table;
    addresses[2][round] = t;
    std::thread helper([t] {
        std::shared_lock<std::shared_mutex> hold(t->lock);
        read_back = in_table; // under the shared lock: after the owner's update or before it
    });
    {
        std::unique_lock<std::shared_mutex> hold(t->lock);
        in_table += 1;
    }
    helper.join();
    delete t;
}

static void spin_owner(int round) {
    auto* s = new Spin;
    addresses[3][round] = s;
    const auto update = [s](long by) {
        while (s->busy.exchange(true, std::memory_order_acquire))
            ;
        under_spin += by;
        s->busy.store(false, std::memory_order_release);
    };
    std::thread helper(update, 2);
    update(1);
    helper.join();
    delete s;
}

int main() {
    void (*const owners[4])(int) = {stack_owner, object_owner, table_owner, spin_owner};
    for (auto* owner : owners)
        for (int round = 0; round < 2; ++round)
            std::thread(owner, round).join();
    for (auto& pair : addresses)
        std::printf("%s ", pair[0] == pair[1] ? "reused" : "not-reused");
    std::printf("%ld %ld %ld %ld %ld\n", in_object, on_stack, in_table, under_spin, read_back);
    return 0;
}
