// ioctl requests without a size in their number beyond the common ones (rt_ioctl.cpp): the
// interface list (SIOCGIFCONF: the struct ifconf read, ifc_len and the entries stored written),
// a socket's owner (FIOGETOWN), a pseudo-terminal's line discipline (TIOCGETD) and old-style
// settings (TCGETA); two workers ask into shared answers under a mutex and read them. The racy
// variant asks without the mutex.
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

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int sock, terminal;
static char buffer[1024];
static struct ifconf list;
static int owner, discipline;
static struct termio settings;
static long seen;

static void* worker(void* arg) {
    pthread_mutex_lock(&lock);
    list.ifc_len = sizeof buffer;
    list.ifc_buf = buffer;
    ioctl(sock, SIOCGIFCONF, &list);
    ioctl(sock, FIOGETOWN, &owner);
    ioctl(terminal, TIOCGETD, &discipline);
    ioctl(terminal, TCGETA, &settings);
    for (int i = 0; i < list.ifc_len / (int)sizeof(struct ifreq); ++i)
        seen += list.ifc_req[i].ifr_name[0];
    seen += owner + discipline + (settings.c_cflag != 0);
    pthread_mutex_unlock(&lock);
    return arg;
}

int main(void) {
    sock = socket(AF_INET, SOCK_DGRAM, 0);
    terminal = posix_openpt(O_RDWR | O_NOCTTY);
    pthread_t t[2];
    for (int i = 0; i < 2; ++i)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; ++i)
        pthread_join(t[i], NULL);
    printf("%ld\n", seen > 0);
    return 0;
}
