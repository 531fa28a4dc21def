// libc-allocated-lists with the lists handed to main through relaxed stores: main's reads of
// the words and of the interface list race with the worker's wordexp and getifaddrs, which
// wrote them. Before, the runtime saw none of those writes (glibc makes them inside) and
// missed both races; clang 14 ThreadSanitizer (-O1) reports main's reads of both lists.
#include <ifaddrs.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <wordexp.h>

static wordexp_t words;
static struct ifaddrs* interfaces;
static atomic_int ready;

static void* worker(void* arg) {
    wordexp("alpha beta gamma", &words, WRDE_NOCMD); // RACE BUG in worker NAMED words
    getifaddrs(&interfaces);                         // RACE
    atomic_store_explicit(&ready, 1, memory_order_relaxed);
    return arg;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    while (atomic_load_explicit(&ready, memory_order_relaxed) == 0)
        ;
    long seen = words.we_wordc;                            // RACE
    seen += words.we_wordv[1][0];                          // RACE
    seen += interfaces != NULL && interfaces->ifa_name[0]; // RACE
    pthread_join(t, NULL);
    wordfree(&words);
    freeifaddrs(interfaces);
    printf("%ld\n", seen > 0);
    return 0;
}
