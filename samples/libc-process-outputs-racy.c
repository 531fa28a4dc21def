// libc-process-outputs with the outputs shared: both threads read ptsname's static buffer
// (each call rewrites it) and get their names into one buffer; main rewrites the table while
// the thread's process_vm_readv reads it, and reads the copy it writes. The runtime saw none of
// these calls' accesses before (clang 14 TSan: only the pthread_getname_np race).
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

static char table[64], copy[64];
static char shared_name[16];
static pthread_barrier_t both;
static atomic_int copying;

static void* namer(void* arg) {
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    size_t length = 0;
    pthread_barrier_wait(&both);
    if (master >= 0) {
        const char* name = ptsname(master); // RACE
        length = strlen(name);              // RACE
        close(master);
    }
    pthread_setname_np(pthread_self(), arg != NULL ? "namer-b" : "namer-a");
    pthread_getname_np(pthread_self(), shared_name, sizeof shared_name); // RACE
    return (void*)length;
}

static void* copier(void* arg) {
    struct iovec to = {copy, sizeof copy}, from = {table, sizeof table};
    atomic_store_explicit(&copying, 1, memory_order_relaxed);
    for (int i = 0; i < 20; ++i)
        process_vm_readv(getpid(), &to, 1, &from, 1, 0); // RACE
    return arg;
}

int main(void) {
    memset(table, 'a', sizeof table);
    pthread_barrier_init(&both, NULL, 2);
    pthread_t t[3];
    pthread_create(&t[0], NULL, namer, NULL);
    pthread_create(&t[1], NULL, namer, &t);
    pthread_create(&t[2], NULL, copier, NULL);
    while (!atomic_load_explicit(&copying, memory_order_relaxed))
        usleep(10);
    table[5] = 'b';   // RACE
    char c = copy[5]; // RACE
    for (int i = 0; i < 3; ++i)
        pthread_join(t[i], NULL);
    printf("%c %s\n", c, shared_name);
    return 0;
}
