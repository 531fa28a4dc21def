// exception-frames with the counts added without the mutex: each worker's update of the total
// races with the other's, and the report must show the access in add_count called from the
// worker (before, the C frames the exceptions unwound, c_each and visit, 200 of each, lay
// between them on the shadow stack).
// BUILD-FLAGS: -x c @SAMPLE_DIR@/parts/c-each.c -x none
#include <pthread.h>

#include <cstdio>
#include <stdexcept>

extern "C" int c_each(const int* items, int n, int (*callback)(int));

static long total;

static int check(int item) {
    if (item < 0) throw std::runtime_error("negative item");
    return item;
}

__attribute__((noinline)) static long scan(const int* items, int n) {
    try {
        return c_each(items, n, check);
    } catch (const std::exception&) {
        return -1;
    }
}

__attribute__((noinline)) static void add_count(long n) {
    total += n; // RACE BUG in add_count CALLED from worker OUTERMOST in worker
}

static void* worker(void* arg) {
    const int items[4] = {1, 2, -3, 4};
    long n = 0;
    for (int i = 0; i < 200; ++i)
        n += scan(items, 4);
    add_count(n);
    return arg;
}

int main() {
    pthread_t t[2];
    for (auto& thread : t)
        pthread_create(&thread, nullptr, worker, nullptr);
    for (auto& thread : t)
        pthread_join(thread, nullptr);
    std::printf("%ld\n", total);
    return 0;
}
