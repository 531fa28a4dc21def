// A named POSIX semaphore (sem_open) hands a value over; an unnamed one is polled with
// sem_trywait and waited with sem_timedwait.
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
static sem_t* named;
static sem_t unnamed;
static int first, second;
static void* producer(void* arg) {
    (void)arg;
    first = 1;
    sem_post(named);
    second = 2;
    sem_post(&unnamed);
    return NULL;
}
int main(void) {
    char name[64];
    snprintf(name, sizeof name, "/peer-corpus-%d", (int)getpid());
    named = sem_open(name, O_CREAT | O_EXCL, 0600, 0);
    if (named == SEM_FAILED) return 1;
    sem_unlink(name);
    sem_init(&unnamed, 0, 0);
    pthread_t t;
    pthread_create(&t, NULL, producer, NULL);
    sem_wait(named);
    int a = first;
    while (sem_trywait(&unnamed) != 0) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 1000000;
        if (until.tv_nsec >= 1000000000) {
            until.tv_sec += 1;
            until.tv_nsec -= 1000000000;
        }
        if (sem_timedwait(&unnamed, &until) == 0) break;
    }
    int b = second;
    pthread_join(t, NULL);
    sem_close(named);
    printf("%d %d\n", a, b);
    return 0;
}
