// C++ exceptions thrown by a callback through C frames (samples/parts/c-each.c, built as C: the
// unwinder passes over them without a cleanup) and caught by the C++ caller, 200 times a worker:
// the catch pops the C frames from the shadow stack (rt_frames_unwound.cpp; before, each catch
// left c_each and visit on it). The totals are added under a mutex. The racy variant adds
// without it, and its report names the worker as add_count's caller.
// BUILD-FLAGS: -x c @SAMPLE_DIR@/parts/c-each.c -x none
#include <pthread.h>

#include <cstdio>
#include <stdexcept>

extern "C" int c_each(const int* items, int n, int (*callback)(int));

static long total;
static pthread_mutex_t total_lock = PTHREAD_MUTEX_INITIALIZER;

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
    pthread_mutex_lock(&total_lock);
    total += n;
    pthread_mutex_unlock(&total_lock);
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
