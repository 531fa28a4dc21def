// ioctl's argument is memory the driver reads or stores into: FIONREAD and TIOCGWINSZ (the old
// terminal and socket requests, no encoding) store a count and a window size, TIOCGPTN (an
// encoded _IOR request) the pseudo-terminal's number, FIONBIO reads its flag. Two workers ask
// into shared answers under a mutex, set non-blocking mode from a local without one; main reads
// the answers after joining. The racy variant drops the mutex (before, the runtime saw none of
// these stores and missed every race).
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t both;
static int pipe_ends[2], terminal;
static int available;
static struct winsize window;
static unsigned number;

static void* worker(void* arg) {
    int on = 1;
    pthread_barrier_wait(&both);
    ioctl(pipe_ends[0], FIONBIO, &on); // a local: no race
    pthread_mutex_lock(&lock);
    ioctl(pipe_ends[0], FIONREAD, &available);
    ioctl(terminal, TIOCGWINSZ, &window);
    ioctl(terminal, TIOCGPTN, &number);
    pthread_mutex_unlock(&lock);
    return arg;
}

int main(void) {
    terminal = posix_openpt(O_RDWR | O_NOCTTY);
    if (terminal < 0 || pipe(pipe_ends) != 0 || write(pipe_ends[1], "abc", 3) != 3) return 1;
    pthread_barrier_init(&both, NULL, 2);
    pthread_t t[2];
    for (int i = 0; i < 2; ++i)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; ++i)
        pthread_join(t[i], NULL);
    printf("%d %d %u\n", available, window.ws_row, number);
    return 0;
}
