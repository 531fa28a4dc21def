// A descriptor closed by one thread while another still writes to it: main closes the log
// pipe as soon as the reader has seen the first line, but the writer goes on writing its last
// line. (After the close, the number may name another open file: a classic corruption.)
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static int log_fds[2];

static void* writer(void* arg) {
    (void)arg;
    if (write(log_fds[1], "first\n", 6) != 6) return NULL;
    usleep(1000);
    if (write(log_fds[1], "last\n", 5) != 5) return NULL; // RACE
    return NULL;
}

int main(void) {
    if (pipe(log_fds) != 0) return 1;
    pthread_t w;
    pthread_create(&w, NULL, writer, NULL);
    char line[6];
    if (read(log_fds[0], line, sizeof line) != sizeof line) return 1;
    close(log_fds[1]); // RACE
    pthread_join(w, NULL);
    close(log_fds[0]);
    printf("%.5s\n", line);
    return 0;
}
