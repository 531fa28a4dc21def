// Records handed on through descriptors by kernel-side copies (see fd-splice-relay.c: tee,
// splice, vmsplice, copy_file_range, sendfile through a relay thread), with two mistakes: the
// producer fills its last record after vmsplicing its index, and the file producer fills its
// record after writing its index. main's reads of those records race with the fills.
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/uio.h>
#include <unistd.h>

enum { kRecords = 4 };
static int to_relay[2], to_main[2], log_pipe[2], file_pipe[2];
static int file_in, file_out;
static int records[kRecords];
static int file_record;

static void* producer(void* arg) {
    (void)arg;
    for (int i = 0; i < kRecords; i++) {
        if (i < kRecords - 1) {
            records[i] = 100 + i;
            if (write(to_relay[1], &i, sizeof i) != sizeof i) return NULL;
        } else {
            static const int last = kRecords - 1;
            struct iovec v = {(void*)&last, sizeof last};
            if (vmsplice(to_relay[1], &v, 1, 0) != sizeof last) return NULL;
            usleep(10000);
            records[i] = 100 + i; // RACE BUG in producer NAMED records
        }
    }
    return NULL;
}

static void* file_producer(void* arg) {
    (void)arg;
    const int index = 0;
    if (write(file_in, &index, sizeof index) != sizeof index) return NULL;
    usleep(10000);
    file_record = 7; // RACE
    return NULL;
}

static void* relay(void* arg) {
    (void)arg;
    for (int i = 0; i < kRecords; i++) {
        if (tee(to_relay[0], log_pipe[1], sizeof(int), 0) != sizeof(int)) return NULL;
        if (splice(to_relay[0], NULL, to_main[1], NULL, sizeof(int), 0) != sizeof(int)) return NULL;
    }
    loff_t in_at = 0;
    while (copy_file_range(file_in, &in_at, file_out, NULL, sizeof(int), 0) == 0)
        sched_yield(); // until the file producer wrote its index
    off_t out_at = 0;
    if (sendfile(file_pipe[1], file_out, &out_at, sizeof(int)) != sizeof(int)) return NULL;
    return NULL;
}

int main(void) {
    if (pipe(to_relay) || pipe(to_main) || pipe(log_pipe) || pipe(file_pipe)) return 1;
    file_in = memfd_create("splice-in", 0);
    file_out = memfd_create("splice-out", 0);
    if (file_in < 0 || file_out < 0) return 1;
    pthread_t p, f, r;
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&f, NULL, file_producer, NULL);
    pthread_create(&r, NULL, relay, NULL);
    long sum = 0;
    for (int k = 0; k < kRecords; k++) {
        int i;
        if (read(to_main[0], &i, sizeof i) != sizeof i || i < 0 || i >= kRecords) return 2;
        sum += records[i]; // RACE
    }
    int index;
    if (read(file_pipe[0], &index, sizeof index) != sizeof index || index != 0) return 3;
    sum += file_record; // RACE
    int logged[kRecords];
    if (read(log_pipe[0], logged, sizeof logged) != sizeof logged) return 4;
    pthread_join(p, NULL);
    pthread_join(f, NULL);
    pthread_join(r, NULL);
    printf("sum %ld, last logged %d\n", sum, logged[kRecords - 1]);
    return 0;
}
