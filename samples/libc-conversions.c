// C library calls that store into the program's buffers (rt_libc_results.cpp,
// rt_libc_wide_strings.cpp), on buffers shared under a mutex: a worker resolves a path with
// realpath, formats an address with inet_ntop, normalizes a struct tm with mktime and formats
// it with strftime, converts a name to wide characters (mbstowcs) and appends to it (wcscat),
// converts text with iconv, fills an error text with the POSIX strerror_r and a struct
// utsname, and file system facts with statvfs; main reads them all under the mutex, parses the
// address back with inet_pton and converts the wide name back with wcstombs. No race.
#define _XOPEN_SOURCE 700
#include <arpa/inet.h>
#include <iconv.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <time.h>
#include <wchar.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char resolved[PATH_MAX];
static char address[INET_ADDRSTRLEN];
static struct tm when;
static char date[64];
static wchar_t wide[32];
static char converted[32];
static char error_text[128];
static struct utsname system_name;
static struct statvfs file_system;

static void* worker(void* arg) {
    (void)arg;
    const struct in_addr loopback = {htonl(0x7f000001)};
    pthread_mutex_lock(&lock);
    if (realpath("/tmp/../tmp", resolved) == NULL) resolved[0] = 0;
    inet_ntop(AF_INET, &loopback, address, sizeof address);
    when.tm_year = 120;
    when.tm_mon = 13; // normalized by mktime
    when.tm_mday = 1;
    mktime(&when);
    strftime(date, sizeof date, "%Y-%m-%d", &when);
    mbstowcs(wide, "name", 32);
    wcscat(wide, L"-wide");
    iconv_t cd = iconv_open("UTF-8", "ASCII");
    if (cd != (iconv_t)-1) {
        char in[] = "plain";
        char* from = in;
        char* to = converted;
        size_t in_left = strlen(in), out_left = sizeof converted - 1;
        iconv(cd, &from, &in_left, &to, &out_left);
        *to = 0;
        iconv_close(cd);
    }
    strerror_r(2, error_text, sizeof error_text);
    uname(&system_name);
    statvfs("/", &file_system);
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    char narrow[32] = "";
    struct in_addr back = {0};
    int month = 0;
    for (int i = 0; i < 2; ++i) {
        pthread_mutex_lock(&lock);
        month = when.tm_mon;
        wcstombs(narrow, wide, sizeof narrow);
        if (address[0] != 0) inet_pton(AF_INET, address, &back);
        const size_t n = strlen(resolved) + strlen(date) + strlen(converted) + strlen(error_text) +
                         strlen(system_name.sysname) + file_system.f_bsize;
        pthread_mutex_unlock(&lock);
        (void)n;
    }
    pthread_join(t, NULL);
    printf("%d %s %u\n", month, narrow, (unsigned)ntohl(back.s_addr) >> 24);
    return 0;
}
