// BUILD-FLAGS: -latomic
// Atomics wider than the machine's lock-free width: std::atomic of a 24-byte struct (the
// compilers call libatomic's generic __atomic_load/__atomic_store/__atomic_compare_exchange) and
// of __int128 (gcc: __tsan_atomic128_*; clang without -mcx16: libatomic's __atomic_load_16 ...).
// A release store or a successful compare-exchange of them publishes what came before, as any
// atomic does (C++ [atomics.order]): race-free.
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

int main() {
    std::thread writer([] {
        for (int i = 0; i < 4; ++i)
            report[i] = 10 * i;
        position.store(Position{1, 2, 3}, std::memory_order_release);
    });
    std::thread auditor([] {
        for (int i = 0; i < 4; ++i)
            audit[i] = i;
        __int128 expected = 0;
        while (!generation.compare_exchange_weak(expected, 1, std::memory_order_acq_rel))
            expected = 0;
    });
    while (position.load(std::memory_order_acquire).z != 3) {
    }
    long sum = report[0] + report[3];
    while (generation.load(std::memory_order_acquire) != 1) {
    }
    sum += audit[1] + audit[2];
    writer.join();
    auditor.join();
    std::printf("%ld\n", sum);
    return 0;
}
