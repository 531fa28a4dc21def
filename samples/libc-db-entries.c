// The system databases read entry by entry and the conversions that return static storage
// (XSH 2.9.1: getprotoent, getnetent, getutxent, ... need not be thread-safe; glibc keeps one
// static entry for getmntent and one static text/address for ether_ntoa/ether_aton): each call
// writes its whole result there, and the next call by any thread overwrites it. Two workers
// read the first mount of their own stream, convert an Ethernet address both ways and read the
// protocols database, under a mutex while they use the static results; the reentrant forms
// (getmntent_r, ether_ntoa_r, ether_aton_r, getprotobyname_r) into their own buffers without
// one. The racy variant drops the mutex (before, the runtime saw none of the static writes and
// missed the races).
#define _GNU_SOURCE
#include <mntent.h>
#include <netdb.h>
#include <netinet/ether.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t both;

static void* worker(void* arg) {
    size_t n = 0;
    struct ether_addr address = {{2, 0, 0, 0, 0, (unsigned char)(arg != NULL)}};
    FILE* mounts = setmntent("/proc/mounts", "r");
    FILE* again = setmntent("/proc/mounts", "r");
    pthread_barrier_wait(&both);
    pthread_mutex_lock(&lock);
    struct mntent* m = mounts != NULL ? getmntent(mounts) : NULL;
    if (m != NULL) n += strlen(m->mnt_dir);
    n += strlen(ether_ntoa(&address));
    n += ether_aton("02:00:00:00:00:07")->ether_addr_octet[5];
    struct protoent* p = getprotoent();
    if (p != NULL) n += strlen(p->p_name);
    pthread_mutex_unlock(&lock);

    struct mntent own;
    char buffer[1024], text[32];
    struct ether_addr parsed;
    if (again != NULL && getmntent_r(again, &own, buffer, sizeof buffer) != NULL)
        n += strlen(own.mnt_dir);
    n += strlen(ether_ntoa_r(&address, text));
    n += ether_aton_r(text, &parsed)->ether_addr_octet[5];
    struct protoent proto, *found = NULL;
    if (getprotobyname_r("tcp", &proto, buffer, sizeof buffer, &found) == 0 && found != NULL)
        n += strlen(proto.p_name);
    if (mounts != NULL) endmntent(mounts);
    if (again != NULL) endmntent(again);
    return (void*)n;
}

int main(void) {
    pthread_barrier_init(&both, NULL, 2);
    pthread_t t[2];
    void* n[2];
    for (int i = 0; i < 2; ++i)
        pthread_create(&t[i], NULL, worker, i != 0 ? &t : NULL);
    for (int i = 0; i < 2; ++i)
        pthread_join(t[i], &n[i]);
    printf("%zu\n", (size_t)n[0] + (size_t)n[1]);
    return 0;
}
