// madvise(MADV_DONTNEED) discards a private anonymous mapping's contents (it reads back as
// zeros): a write of the range, as the mapping is. A worker fills a mapped table under a mutex;
// main discards it after joining the worker, checks that it reads zeros, and a second worker
// fills it again. No race.
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

enum { kBytes = 1 << 16 };
static char* table;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int fills;

static void* fill(void* arg) {
    pthread_mutex_lock(&lock);
    memset(table, (int)(long)arg, 8192);
    fills++;
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(void) {
    table = mmap(NULL, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (table == MAP_FAILED) return 1;
    pthread_t t;
    pthread_create(&t, NULL, fill, (void*)7L);
    pthread_join(t, NULL);
    if (madvise(table, kBytes, MADV_DONTNEED) != 0) return 1;
    const int zero = table[100];
    pthread_create(&t, NULL, fill, (void*)9L);
    pthread_join(t, NULL);
    printf("after discard %d, refilled %d, fills %d\n", zero, table[100], fills);
    return zero == 0 && table[100] == 9 ? 0 : 1;
}
