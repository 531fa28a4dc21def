// GNU and Linux calls that answer into the caller's memory (rt_libc_queries_gnu.cpp): the
// thread's affinity, its name (prctl), random bytes (getentropy), a user's groups, the return
// addresses of the calling context and their names, an /etc/ethers line, the capabilities:
// each stores into one shared answer, under a mutex. The racy variant calls them without it.
#define _GNU_SOURCE
#include <execinfo.h>
#include <grp.h>
#include <linux/capability.h>
#include <netinet/ether.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

int capget(cap_user_header_t header, cap_user_data_t data);

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static cpu_set_t cpus;
static char name[16];
static unsigned char entropy[16];
static gid_t groups[64];
static void* frames[8];
static struct ether_addr mac;
static char host[64];
static struct __user_cap_data_struct caps[2];
static long seen;

static void* worker(void* arg) {
    struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    pthread_mutex_lock(&lock);
    int count = 64;
    pthread_getaffinity_np(pthread_self(), sizeof cpus, &cpus);
    prctl(PR_SET_NAME, "gnu-queries");
    prctl(PR_GET_NAME, name);
    getentropy(entropy, sizeof entropy);
    getgrouplist("root", 0, groups, &count);
    const int n = backtrace(frames, 8);
    char** symbols = backtrace_symbols(frames, n);
    if (symbols != NULL) seen += symbols[0][0] != 0;
    free(symbols);
    ether_line("00:11:22:33:44:55 gateway", &mac, host);
    capget(&header, caps);
    seen += CPU_COUNT(&cpus) + name[0] + entropy[0] + groups[0] + mac.ether_addr_octet[5];
    pthread_mutex_unlock(&lock);
    return arg;
}

int main(void) {
    pthread_t t[2];
    for (int i = 0; i < 2; ++i)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; ++i)
        pthread_join(t[i], NULL);
    printf("%s %s %ld\n", name, host, seen > 0);
    return 0;
}
