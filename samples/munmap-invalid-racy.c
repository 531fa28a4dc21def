// munmap calls that the kernel rejects (EINVAL) unmap nothing and are no access; the valid one
// that follows them unmaps the second page unordered with the reader's reads of it (munmap is a
// write of the range; main waits for a relaxed flag, which orders nothing, so that the reads are
// done before the page goes).
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

static char* pages;
static atomic_int read_done; // relaxed: orders nothing

static void* reader(void* arg) {
    long* sum = arg;
    for (int i = 0; i < 64; ++i)
        *sum += pages[i];
    for (int i = 0; i < 64; ++i)
        *sum += pages[4096 + i]; // RACE
    atomic_store_explicit(&read_done, 1, memory_order_relaxed);
    return NULL;
}

int main(void) {
    pages = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED) return 1;
    long sum = 0;
    pthread_t t;
    pthread_create(&t, NULL, reader, &sum);
    int rejected = 0;
    rejected += munmap(pages + 1, 4096) != 0;
    rejected += munmap(pages, 0) != 0;
    rejected += munmap(pages, 1ull << 60) != 0;
    usleep(100000);             // (the reader has read the second page by now; not an ordering)
    munmap(pages + 4096, 4096); // RACE
    pthread_join(t, NULL);
    munmap(pages, 4096);
    printf("%d rejected, sum %ld\n", rejected, sum);
    return 0;
}
