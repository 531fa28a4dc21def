// libc-gnu-queries without the mutex: the two workers' calls store into the shared answers
// unordered. Before, the runtime saw none of these stores (glibc makes them inside, through
// system calls and its own string functions) and missed every race; clang 14 ThreadSanitizer
// reports backtrace's, ether_line's and capget's only (-O1, one report each).
#define _GNU_SOURCE
#include <execinfo.h>
#include <grp.h>
#include <linux/capability.h>
#include <netinet/ether.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

int capget(cap_user_header_t header, cap_user_data_t data);

static pthread_barrier_t both;
static cpu_set_t cpus;
static char name[16];
static unsigned char entropy[16];
static gid_t groups[64];
static void* frames[8];
static struct ether_addr mac;
static char host[64];
static struct __user_cap_data_struct caps[2];

static void* worker(void* arg) {
    struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    int count = 64;
    pthread_barrier_wait(&both);
    pthread_getaffinity_np(pthread_self(), sizeof cpus, &cpus); // RACE BUG in worker NAMED cpus
    prctl(PR_GET_NAME, name);                                   // RACE
    getentropy(entropy, sizeof entropy);                        // RACE
    getgrouplist("root", 0, groups, &count);                    // RACE
    backtrace(frames, 8);                                       // RACE
    ether_line("00:11:22:33:44:55 gateway", &mac, host);        // RACE
    capget(&header, caps);                                      // RACE
    return arg;
}

int main(void) {
    void* first[2];
    backtrace(first, 2); // glibc loads its unwinder on the first call
    pthread_barrier_init(&both, NULL, 2);
    pthread_t t[2];
    for (int i = 0; i < 2; ++i)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; ++i)
        pthread_join(t[i], NULL);
    printf("%s %s %u\n", name, host, caps[0].effective != 0);
    return 0;
}
