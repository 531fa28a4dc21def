// POSIX message queue notifications (mq_notify):
// - SIGEV_SIGNAL: SIGUSR1 blocked everywhere; main registers for it, a sender fills a record and
//   sends to the empty queue, which makes the kernel send SIGUSR1; main accepts it with sigwait
//   and reads the record (before receiving the message).
// - SIGEV_THREAD: main fills a configuration and registers; a sender fills a record and sends to
//   the empty queue, which makes the C library run the notification function on a thread of its
//   own: it reads both (the registration and the send are ordered before it), receives the
//   message and posts a semaphore main waits on.
// ThreadSanitizer does not intercept the mq_* functions (it reports the records as races).
#define _GNU_SOURCE
#include <fcntl.h>
#include <mqueue.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static struct {
    int wanted;
    char label[16];
} config;
static int notified_record[4];
static char notified_report[48];
static sem_t notified;
static mqd_t queue;
static int signalled_record[4];

static void on_message(union sigval value) {
    mqd_t q = *(mqd_t*)value.sival_ptr;
    char m[16];
    if (mq_receive(q, m, sizeof m, NULL) < 0) perror("mq_receive");
    const int wanted = config.wanted;
    const int seen = notified_record[0] + notified_record[3];
    snprintf(notified_report, sizeof notified_report, "%s %d %d", config.label, wanted, seen);
    sem_post(&notified);
}

static void* notifying_sender(void* arg) {
    for (int k = 0; k < 4; ++k)
        notified_record[k] = 50 + k;
    char m = 'n';
    mq_send(queue, &m, 1, 0);
    return arg;
}

static void* signalling_sender(void* arg) {
    for (int k = 0; k < 4; ++k)
        signalled_record[k] = 60 + k;
    char m = 's';
    mq_send(queue, &m, 1, 0);
    return arg;
}

int main(void) {
    char name[64];
    snprintf(name, sizeof name, "/firstrace-mq-notify-%d", (int)getpid());
    struct mq_attr attr = {.mq_maxmsg = 8, .mq_msgsize = 16};
    queue = mq_open(name, O_RDWR | O_CREAT, 0600, &attr);
    if (queue < 0) return 1;
    mq_unlink(name);
    sigset_t usr1;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &usr1, NULL); // inherited by every thread

    struct sigevent by_signal = {.sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1};
    if (mq_notify(queue, &by_signal) != 0) return 1;
    pthread_t t[2];
    pthread_create(&t[0], NULL, signalling_sender, NULL);
    int sig;
    sigwait(&usr1, &sig);
    int sum = signalled_record[0] + signalled_record[3];
    char m[16];
    if (mq_receive(queue, m, sizeof m, NULL) != 1) return 1;

    config.wanted = 3;
    strcpy(config.label, "notified");
    sem_init(&notified, 0, 0);
    struct sigevent on_thread = {.sigev_notify = SIGEV_THREAD};
    on_thread.sigev_notify_function = on_message;
    on_thread.sigev_value.sival_ptr = &queue;
    if (mq_notify(queue, &on_thread) != 0) return 1;
    pthread_create(&t[1], NULL, notifying_sender, NULL);
    sem_wait(&notified);
    pthread_join(t[0], NULL);
    pthread_join(t[1], NULL);
    mq_close(queue);
    printf("%s, sum %d\n", notified_report, sum);
    return 0;
}
