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
static long report[4];
static long audit[4];

int main() {
    std::thread writer([] {
        position.store(Position{1, 2, 3}, std::memory_order_release);
        report[3] = 30; // RACE
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
    writer.join();
    auditor.join();
    std::printf("%ld\n", sum);
    return 0;
}
