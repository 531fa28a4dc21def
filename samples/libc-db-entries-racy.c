// libc-db-entries without the mutex: both workers' getmntent, ether_ntoa, ether_aton and
// getprotoent write the C library's static results while the other reads them (before, the
// runtime saw none of these writes: every race missed; clang 14 ThreadSanitizer misses the
// ether_* ones too).
#define _GNU_SOURCE
#include <mntent.h>
#include <netdb.h>
#include <netinet/ether.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_barrier_t both;

static void* worker(void* arg) {
    size_t n = 0;
    struct ether_addr address = {{2, 0, 0, 0, 0, (unsigned char)(arg != NULL)}};
    FILE* mounts = setmntent("/proc/mounts", "r");
    pthread_barrier_wait(&both);
    struct mntent* m = mounts != NULL ? getmntent(mounts) : NULL; // RACE BUG in worker
    if (m != NULL) n += strlen(m->mnt_dir);                       // RACE
    n += strlen(ether_ntoa(&address));                            // RACE
    n += ether_aton("02:00:00:00:00:07")->ether_addr_octet[5];    // RACE
    struct protoent* p = getprotoent();                           // RACE
    if (p != NULL) n += strlen(p->p_name);                        // RACE
    if (mounts != NULL) endmntent(mounts);
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
