// A named semaphore (sem_open) created with one token. The owner takes the token and writes the
// result; the helper writes the result too and posts, believing it hands over to the owner. The
// owner's wait takes the initial token, not the helper's post: the writes are unordered (with
// the initial value taken as 0, the wait would seem to pair with the post and hide the race).
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <unistd.h>

static sem_t* ready;
static int result;

static void* helper(void* arg) {
    (void)arg;
    usleep(50000); // (the owner's wait has returned by now; not an ordering)
    result = 2;    // RACE
    sem_post(ready);
    return NULL;
}

int main(void) {
    char name[64];
    snprintf(name, sizeof name, "/firstrace-sample-racy-%d", (int)getpid());
    ready = sem_open(name, O_CREAT | O_EXCL, 0600, 1);
    if (ready == SEM_FAILED) return 1;
    sem_unlink(name);
    pthread_t h;
    pthread_create(&h, NULL, helper, NULL);
    sem_wait(ready);
    result = 1; // RACE
    pthread_join(h, NULL);
    sem_close(ready);
    printf("%d\n", result);
    return 0;
}
