// libc-conversions.c without the mutex: the worker's realpath, inet_ntop, mktime, statvfs and
// wcscat store into buffers that main reads meanwhile (a relaxed flag orders nothing).
#define _XOPEN_SOURCE 700
#include <arpa/inet.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <time.h>
#include <wchar.h>

static char resolved[PATH_MAX];
static char address[INET_ADDRSTRLEN];
static struct tm when = {.tm_year = 120, .tm_mon = 13, .tm_mday = 1};
static wchar_t wide[32] = L"name";
static struct statvfs file_system;
static atomic_int done;

static void* worker(void* arg) {
    (void)arg;
    const struct in_addr loopback = {htonl(0x7f000001)};
    if (realpath("/tmp", resolved) == NULL) resolved[0] = 0; // RACE
    inet_ntop(AF_INET, &loopback, address, sizeof address);  // RACE
    mktime(&when);                                           // RACE
    statvfs("/", &file_system);                              // RACE
    wcscat(wide, L"-wide");                                  // RACE
    atomic_store_explicit(&done, 1, memory_order_relaxed);
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    while (!atomic_load_explicit(&done, memory_order_relaxed)) {
    }
    const size_t a = strlen(resolved); // RACE
    struct in_addr back = {0};
    inet_pton(AF_INET, address, &back); // RACE
    const int month = when.tm_mon;      // RACE
    char narrow[32];
    wcstombs(narrow, wide, sizeof narrow);           // RACE
    const unsigned long block = file_system.f_bsize; // RACE
    pthread_join(t, NULL);
    printf("%zu %d %s %u %lu\n", a, month, narrow, (unsigned)back.s_addr & 1, block);
    return 0;
}
