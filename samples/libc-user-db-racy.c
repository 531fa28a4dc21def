// libc-user-db.c without the mutex: main reads the name in the passwd entry its getpwuid
// returned, then lets the worker run (a relaxed flag orders nothing), and the worker's getpwuid
// overwrites that one static entry (and reads it meanwhile). (In glibc each lookup function has its
// own static entry: getpwnam's and getpwuid's are different buffers and do not race with each
// other.)
#define _GNU_SOURCE
#include <pthread.h>
#include <pwd.h>
#include <stdatomic.h>
#include <stdio.h>

static atomic_int read_done;

static void* worker(void* arg) {
    (void)arg;
    while (!atomic_load_explicit(&read_done, memory_order_relaxed)) {
    }
    struct passwd* pw = getpwuid(0);       // RACE
    return pw != NULL ? pw->pw_dir : NULL; // RACE
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    struct passwd* pw = getpwuid(0); // RACE
    char first = 0;
    if (pw != NULL) first = pw->pw_name[0]; // RACE
    atomic_store_explicit(&read_done, 1, memory_order_relaxed);
    pthread_join(t, NULL);
    printf("%c\n", first);
    return 0;
}
