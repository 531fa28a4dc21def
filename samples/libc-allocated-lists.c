// Lists a call returns in blocks it allocates (rt_libc_allocated_lists.cpp): a worker expands
// words with wordexp and lists the network interfaces with getifaddrs, then hands both to main
// through a release store; main reads them after the acquire load and frees them (wordfree,
// freeifaddrs: the frees are the program's). The racy variant hands them over relaxed.
#include <ifaddrs.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <wordexp.h>

static wordexp_t words;
static struct ifaddrs* interfaces;
static atomic_int ready;

static void* worker(void* arg) {
    wordexp("alpha beta gamma", &words, WRDE_NOCMD);
    getifaddrs(&interfaces);
    atomic_store_explicit(&ready, 1, memory_order_release);
    return arg;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    while (atomic_load_explicit(&ready, memory_order_acquire) == 0)
        ;
    long seen = words.we_wordc + words.we_wordv[1][0];
    for (const struct ifaddrs* a = interfaces; a != NULL; a = a->ifa_next)
        seen += a->ifa_name[0] + (a->ifa_addr != NULL ? a->ifa_addr->sa_family : 0);
    pthread_join(t, NULL);
    wordfree(&words);
    freeifaddrs(interfaces);
    printf("%ld\n", seen > 0);
    return 0;
}
