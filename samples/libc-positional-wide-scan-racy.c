// As libc-positional-wide-scan.c, but main uses the record while the worker fills it, ordered
// by a relaxed flag only: it reads what swscanf and the positional sscanf assigned (`%2$d`
// stores through the second argument, not the first), rewrites the label the positional
// snprintf reads and reads the count its `%5$n` stores.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
#include <wchar.h>

struct record {
    int wide_id, position_id, count;
    char name[16], label[16], line[64];
};
static struct record shared = {.label = "label"};
static atomic_int filled; // relaxed: orders nothing

static void* worker(void* arg) {
    swscanf(L"41", L"%d", &shared.wide_id);                                               // RACE
    sscanf("7 seven", "%2$d %1$15s", shared.name, &shared.position_id);                   // RACE
    snprintf(shared.line, sizeof shared.line, "%3$*1$.*2$s|%4$d%5$n", 8, 3, shared.label, // RACE
             41, &shared.count);
    atomic_store_explicit(&filled, 1, memory_order_relaxed);
    return arg;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    for (int tries = 0; tries < 2000 && !atomic_load_explicit(&filled, memory_order_relaxed);
         ++tries) {
        struct timespec pause = {0, 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    const int wide_id = shared.wide_id;         // RACE
    const int position_id = shared.position_id; // RACE
    shared.label[0] = 'L';                      // RACE
    const int count = shared.count;             // RACE
    pthread_join(t, NULL);
    printf("%d %d %s %d\n", wide_id, position_id, shared.line, count);
    return 0;
}
