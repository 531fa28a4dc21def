// munmap calls that the kernel rejects (EINVAL: an address not page-aligned, a zero length, a
// range beyond the address space) unmap nothing: they are no access to the mapping that a
// thread reads meanwhile. The real unmapping comes after the join.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

static char* page;

static void* reader(void* arg) {
    long* sum = arg;
    for (int round = 0; round < 100; ++round)
        for (int i = 0; i < 64; ++i)
            *sum += page[i];
    return NULL;
}

int main(void) {
    page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) return 1;
    for (int i = 0; i < 64; ++i)
        page[i] = (char)i;
    long sum = 0;
    pthread_t t;
    pthread_create(&t, NULL, reader, &sum);
    int rejected = 0;
    rejected += munmap(page + 1, 4096) != 0;
    rejected += munmap(page, 0) != 0;
    rejected += munmap(page, 1ull << 60) != 0;
    rejected += munmap(page, (size_t)-10000) != 0;
    pthread_join(t, NULL);
    munmap(page, 4096);
    printf("%d rejected, sum %ld\n", rejected, sum);
    return 0;
}
