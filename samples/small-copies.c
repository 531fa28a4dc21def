// Small fixed-size copies that gcc -O1/-O2 would expand inline after its ThreadSanitizer pass
// (firstrace-cc keeps them calls, see small-copies-racy.c) and clang turns into calls. The
// worker publishes a 16-byte pair and clears a 12-byte tag under a mutex, main copies both out
// under the same mutex.
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct Pair {
    long key, value;
};
static struct Pair shared;
static char tag[12];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void* publish(void* arg) {
    const struct Pair* p = arg;
    pthread_mutex_lock(&lock);
    memcpy(&shared, p, sizeof shared);
    memset(tag, 'x', sizeof tag);
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(void) {
    struct Pair mine = {1, 2}, seen;
    char copy[12];
    pthread_t t;
    pthread_create(&t, NULL, publish, &mine);
    pthread_mutex_lock(&lock);
    memcpy(&seen, &shared, sizeof seen);
    memcpy(copy, tag, sizeof copy);
    pthread_mutex_unlock(&lock);
    pthread_join(t, NULL);
    printf("%ld %ld %c\n", seen.key, seen.value, copy[0]);
    return 0;
}
