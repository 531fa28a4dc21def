// libc-ioctl-more without the mutex: the two workers' requests store into the shared answers
// unordered. Before, the runtime recorded nothing for these requests (no size in their number,
// not in its list) and missed every race.
#define _GNU_SOURCE
#include <fcntl.h>
#include <net/if.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

static pthread_barrier_t both;
static int sock, terminal;
static char buffer[1024];
static struct ifconf list;
static int owner, discipline;
static struct termio settings;

static void* worker(void* arg) {
    pthread_barrier_wait(&both);
    list.ifc_len = sizeof buffer;           // RACE
    list.ifc_buf = buffer;                  // RACE
    ioctl(sock, SIOCGIFCONF, &list);        // RACE BUG in worker NAMED list
    ioctl(sock, FIOGETOWN, &owner);         // RACE
    ioctl(terminal, TIOCGETD, &discipline); // RACE
    ioctl(terminal, TCGETA, &settings);     // RACE
    return arg;
}

int main(void) {
    sock = socket(AF_INET, SOCK_DGRAM, 0);
    terminal = posix_openpt(O_RDWR | O_NOCTTY);
    pthread_barrier_init(&both, NULL, 2);
    pthread_t t[2];
    for (int i = 0; i < 2; ++i)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; ++i)
        pthread_join(t[i], NULL);
    printf("%d %d %d %d\n", list.ifc_len > 0, owner, discipline, settings.c_cflag != 0);
    return 0;
}
