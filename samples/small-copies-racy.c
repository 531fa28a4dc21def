// Small fixed-size copies that the compilers do not leave as memcpy/memset calls: gcc -O2
// folds them into 16-byte loads and stores (instrumented as __tsan_read16/__tsan_write16) or
// into ranges (__tsan_write_range); clang keeps the calls and the runtime intercepts them. A
// worker publishes a 16-byte pair and clears a 12-byte tag while main copies both out, with no
// synchronization between them. gcc -O2 expands the 12-byte memset and memcpy into plain 8- and
// 4-byte moves after its instrumentation pass: those stay uninstrumented, and the race on `tag`
// is seen neither by firstrace nor by gcc's ThreadSanitizer at -O2 (at -O0 and with clang it is).
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
