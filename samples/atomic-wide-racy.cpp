// BUILD-FLAGS: -latomic
// Wide atomics (atomic-wide.cpp) order only what their orders say: the writer fills its report
// after its release store, and the auditor's relaxed store of the 16-byte generation releases
// nothing. Both reads race.
#include <atomic>
#include <cstdio>
#include <thread>

struct Position {
    long x, y, z;
};

static std::atomic<Position> position{Position{0, 0, 0}};
static std::atomic<__int128> generation{0};
long report[4]; // not static: libatomic calls could read it, so no store moves across them
long audit[4];
static std::atomic<bool> main_has_read{false};

int main() {
    std::thread writer([] {
        position.store(Position{1, 2, 3}, std::memory_order_release);
        report[3] = 30; // RACE
        // Not done before main has read: the end of this thread frees its state, and a block
        // main allocates next (the auditor's) would then be ordered after that free (C++
        // [new.delete.dataraces]), and the write with it.
        while (!main_has_read.load(std::memory_order_relaxed)) {
        }
    });
    std::thread auditor([] {
        audit[1] = 1; // RACE
        generation.store(1, std::memory_order_relaxed);
    });
    while (position.load(std::memory_order_acquire).z != 3) {
    }
    long sum = report[3]; // RACE
    while (generation.load(std::memory_order_acquire) != 1) {
    }
    sum += audit[1]; // RACE
    main_has_read.store(true, std::memory_order_relaxed);
    writer.join();
    auditor.join();
    std::printf("%ld\n", sum);
    return 0;
}
