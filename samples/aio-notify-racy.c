// aio-notify with two bugs: main sets the configuration after submitting the aio_read whose
// notification reads it, and the signal waiter rewrites the buffer of another aio_write, whose
// transfer nothing orders before it (the signal reports the signalled aio_write only).
#define _GNU_SOURCE
#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int file;
static char read_buffer[64], write_buffer[64], list_buffers[2][32];
static int config;
static int results[3];
static sem_t done;
static struct aiocb read_cb, write_cb, list_cbs[2], other_cb;
static char other_buffer[16];

static void read_done(union sigval value) {
    struct aiocb* cb = value.sival_ptr;
    results[0] = config + read_buffer[0] + (int)aio_return(cb); // RACE
    sem_post(&done);
}

static void list_done(union sigval value) {
    (void)value;
    results[2] = list_buffers[0][0] + list_buffers[1][0];
    sem_post(&done);
}

static void* signal_waiter(void* arg) {
    (void)arg;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR1);
    int sig;
    if (sigwait(&set, &sig) != 0) return NULL;
    memset(write_buffer, 'w', sizeof write_buffer); // the transfer has sent it
    other_buffer[0] = 'w';                          // RACE
    results[1] = sig;
    sem_post(&done);
    return NULL;
}

int main(void) {
    char path[64];
    snprintf(path, sizeof path, "/tmp/firstrace-aio-notify-%d", getpid());
    file = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (file < 0) return 1;
    unlink(path);
    char data[64];
    memset(data, 'd', sizeof data);
    if (pwrite(file, data, sizeof data, 0) != sizeof data) return 1;
    sem_init(&done, 0, 0);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    pthread_t waiter;
    pthread_create(&waiter, NULL, signal_waiter, NULL);

    memset(other_buffer, 'o', sizeof other_buffer);
    other_cb = (struct aiocb){.aio_fildes = file, .aio_buf = other_buffer,
                              .aio_nbytes = sizeof other_buffer, .aio_offset = 128};
    if (aio_write(&other_cb) != 0) return 1; // RACE
    memset(write_buffer, 'x', sizeof write_buffer);
    write_cb = (struct aiocb){.aio_fildes = file, .aio_buf = write_buffer,
                              .aio_nbytes = sizeof write_buffer, .aio_offset = 64};
    write_cb.aio_sigevent.sigev_notify = SIGEV_SIGNAL;
    write_cb.aio_sigevent.sigev_signo = SIGUSR1;
    if (aio_write(&write_cb) != 0) return 1;
    sem_wait(&done); // before any SIGEV_THREAD notification: glibc runs those with every signal
                     // unblocked, and SIGUSR1 must reach the waiter

    read_cb = (struct aiocb){.aio_fildes = file, .aio_buf = read_buffer,
                             .aio_nbytes = sizeof read_buffer};
    read_cb.aio_sigevent.sigev_notify = SIGEV_THREAD;
    read_cb.aio_sigevent.sigev_notify_function = read_done;
    read_cb.aio_sigevent.sigev_value.sival_ptr = &read_cb;
    if (aio_read(&read_cb) != 0) return 1;
    config = 5; // RACE

    struct aiocb* list[2];
    for (int i = 0; i < 2; ++i) {
        list_cbs[i] = (struct aiocb){.aio_fildes = file, .aio_buf = list_buffers[i],
                                     .aio_nbytes = sizeof list_buffers[i],
                                     .aio_offset = 32 * i, .aio_lio_opcode = LIO_READ};
        list[i] = &list_cbs[i];
    }
    struct sigevent list_event = {.sigev_notify = SIGEV_THREAD, .sigev_notify_function = list_done};
    if (lio_listio(LIO_NOWAIT, list, 2, &list_event) != 0) return 1;

    for (int i = 0; i < 2; ++i)
        sem_wait(&done);
    pthread_join(waiter, NULL);
    while (aio_error(&other_cb) == EINPROGRESS)
        usleep(1000);
    close(file);
    printf("%d %d %d\n", results[0], results[1], results[2]);
    return 0;
}
