// BUILD-FLAGS: -D_FORTIFY_SOURCE=2
// _FORTIFY_SOURCE's checked wide-character calls (rt_libc_fortify.cpp): built with
// -D_FORTIFY_SOURCE=2, the optimized builds call __wcscpy_chk, __wcscat_chk, __wcsncpy_chk,
// __wmemcpy_chk, __wmemmove_chk and __wmemset_chk instead of the plain functions (at -O0
// glibc's headers keep the plain ones). A worker fills a shared record with them under a mutex,
// main reads it under the mutex. No race.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <wchar.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    wchar_t name[32];
    wchar_t copy[32];
    wchar_t block[16];
    wchar_t moved[16];
    wchar_t blank[16];
} record;
static volatile size_t copy_size = 8;
static wchar_t source[32] = L"fortified";

static void* worker(void* arg) {
    for (int i = 0; i < 3; ++i) {
        pthread_mutex_lock(&lock);
        wcscpy(record.name, source);
        wcscat(record.name, L"-wide");
        wcsncpy(record.copy, source, copy_size);
        wmemcpy(record.block, source, copy_size);
        wmemmove(record.moved, record.block, copy_size);
        wmemset(record.blank, L'.', copy_size);
        pthread_mutex_unlock(&lock);
    }
    return arg;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    for (int i = 0; i < 3; ++i) {
        pthread_mutex_lock(&lock);
        const size_t n = wcslen(record.name);
        const wchar_t first = record.block[0] + record.moved[1] + record.blank[2] + record.copy[0];
        pthread_mutex_unlock(&lock);
        printf("%zu %d\n", n, (int)first);
    }
    pthread_join(t, NULL);
    printf("%ls %ls\n", record.name, record.copy);
    return 0;
}
