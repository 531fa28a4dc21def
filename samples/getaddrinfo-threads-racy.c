// The resolvers of getaddrinfo-threads.c, but one more thread hands its answer over through a
// relaxed atomic pointer: main waits for it and starts a reader, whose read of the list races
// with the getaddrinfo call that wrote it (the result list stays the program's: a write of every
// addrinfo and address, attributed to the call). The read is in a thread of its own so that it
// begins after the list was allocated: main's wait began before, and an event that spans a reuse
// of the bytes counts in both their lifetimes (DESIGN-NOTES "Lifetimes of reused memory").
#define _GNU_SOURCE
#include <netdb.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

enum { kThreads = 4, kLookups = 20 };
static int answers[kThreads];
static struct addrinfo* _Atomic handed_over;

static void* resolver(void* arg) {
    const int me = (int)(intptr_t)arg;
    for (int i = 0; i < kLookups; ++i) {
        struct addrinfo* list;
        if (getaddrinfo("localhost", NULL, NULL, &list) != 0) continue;
        for (const struct addrinfo* a = list; a != NULL; a = a->ai_next)
            ++answers[me];
        freeaddrinfo(list);
    }
    return NULL;
}

static void* publisher(void* arg) {
    (void)arg;
    struct addrinfo* list = NULL;
    if (getaddrinfo("localhost", NULL, NULL, &list) != 0) list = NULL; // RACE
    atomic_store_explicit(&handed_over, list, memory_order_relaxed);
    return NULL;
}

static int family;

static void* reader(void* arg) {
    const struct addrinfo* list = arg;
    family = list->ai_family; // RACE
    return NULL;
}

int main(void) {
    pthread_t threads[kThreads], handing, reading;
    for (int i = 0; i < kThreads; ++i)
        pthread_create(&threads[i], NULL, resolver, (void*)(intptr_t)i);
    pthread_create(&handing, NULL, publisher, NULL);
    struct addrinfo* list;
    while ((list = atomic_load_explicit(&handed_over, memory_order_relaxed)) == NULL) {
    }
    pthread_create(&reading, NULL, reader, list);
    int total = 0;
    for (int i = 0; i < kThreads; ++i) {
        pthread_join(threads[i], NULL);
        total += answers[i];
    }
    pthread_join(handing, NULL);
    pthread_join(reading, NULL);
    freeaddrinfo(list);
    printf("%s %d\n", total > 0 ? "resolved" : "no answers", family != 0);
    return 0;
}
