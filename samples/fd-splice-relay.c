// Records handed on through descriptors by kernel-side copies that never pass through the
// program's memory: a producer writes record indexes into a pipe (write, and vmsplice for the
// last one), a relay thread copies each with tee into a log pipe and moves it with splice into
// the pipe main reads; a second producer writes a record's index into a memory file, the relay
// copies it with copy_file_range into a second memory file and sends it with sendfile into a
// pipe main reads too. Each copy is a receive on its source and a send on its destination, so
// main's read of a record is ordered after the producer's fill through the relay (the runtime
// did not model them: 4 false races before). No race.
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
        records[i] = 100 + i;
        if (i < kRecords - 1) {
            if (write(to_relay[1], &i, sizeof i) != sizeof i) return NULL;
        } else {
            // vmsplice maps the page into the pipe: the index must stay as it is until read
            static const int last = kRecords - 1;
            struct iovec v = {(void*)&last, sizeof last};
            if (vmsplice(to_relay[1], &v, 1, 0) != sizeof last) return NULL;
        }
    }
    return NULL;
}

static void* file_producer(void* arg) {
    (void)arg;
    file_record = 7;
    const int index = 0;
    if (write(file_in, &index, sizeof index) != sizeof index) return NULL;
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
        sum += records[i];
    }
    int index;
    if (read(file_pipe[0], &index, sizeof index) != sizeof index || index != 0) return 3;
    sum += file_record;
    int logged[kRecords];
    if (read(log_pipe[0], logged, sizeof logged) != sizeof logged) return 4;
    pthread_join(p, NULL);
    pthread_join(f, NULL);
    pthread_join(r, NULL);
    printf("sum %ld, last logged %d\n", sum, logged[kRecords - 1]);
    return sum == 100 + 101 + 102 + 103 + 7 ? 0 : 5;
}
