// C library calls that write the program's memory on behalf of the kernel: ptsname_r (the
// reentrant form: the caller's buffer; ptsname's static one needs not be thread-safe, XSH
// 2.9.1), pthread_getname_np into each thread's own buffer, and process_vm_readv of the own
// process (the kernel reads the source ranges and writes the destination ones) copying a table
// main filled before creating the thread. Race-free; see the racy variant.
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

static char table[64], copy[64];

static void* namer(void* arg) {
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    char name[64] = "";
    if (master >= 0) {
        ptsname_r(master, name, sizeof name);
        close(master);
    }
    char own[16];
    pthread_setname_np(pthread_self(), arg != NULL ? "namer-b" : "namer-a");
    pthread_getname_np(pthread_self(), own, sizeof own);
    return (void*)(strlen(name) + strlen(own));
}

static void* copier(void* arg) {
    struct iovec to = {copy, sizeof copy}, from = {table, sizeof table};
    process_vm_readv(getpid(), &to, 1, &from, 1, 0);
    return arg;
}

int main(void) {
    memset(table, 'a', sizeof table);
    pthread_t t[3];
    pthread_create(&t[0], NULL, namer, NULL);
    pthread_create(&t[1], NULL, namer, &t);
    pthread_create(&t[2], NULL, copier, NULL);
    for (int i = 0; i < 3; ++i)
        pthread_join(t[i], NULL);
    printf("%c\n", copy[5]);
    return 0;
}
