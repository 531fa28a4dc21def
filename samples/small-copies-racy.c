// Small fixed-size copies that gcc -O1/-O2 would expand inline after its ThreadSanitizer
// pass (the 12-byte memset and memcpy as plain 8- and 4-byte moves: neither instrumented nor
// intercepted, so gcc's own ThreadSanitizer misses the race on `tag`). firstrace-cc keeps them
// calls for gcc (-fno-builtin-memcpy etc.) and the runtime intercepts them, as it does clang's,
// whose pass turns the memory intrinsics into calls. A worker publishes a 16-byte pair and
// clears a 12-byte tag while main copies both out, with no synchronization between them.
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct Pair {
    long key, value;
};
static struct Pair shared;
static char tag[12];

static void* publish(void* arg) {
    const struct Pair* p = arg;
    memcpy(&shared, p, sizeof shared); // RACE
    memset(tag, 'x', sizeof tag);      // RACE
    return NULL;
}

int main(void) {
    struct Pair mine = {1, 2}, seen;
    char copy[12];
    pthread_t t;
    pthread_create(&t, NULL, publish, &mine);
    memcpy(&seen, &shared, sizeof seen); // RACE
    memcpy(copy, tag, sizeof copy);      // RACE
    pthread_join(t, NULL);
    printf("%ld %ld %c\n", seen.key, seen.value, copy[0]);
    return 0;
}
