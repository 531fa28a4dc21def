// BUILD-FLAGS: -D_FORTIFY_SOURCE=2
// As libc-fortify-wide.c, but the worker fills the record without the mutex while main reads
// it under the mutex: the checked wide copies (__wcscpy_chk, __wmemcpy_chk, __wmemset_chk at
// -O1/-O2, the plain functions at -O0) race with main's reads.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <wchar.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    wchar_t name[32];
    wchar_t block[16];
    wchar_t blank[16];
} record;
static volatile size_t copy_size = 8;
static wchar_t source[32] = L"fortified";

static void* worker(void* arg) {
    wcscpy(record.name, source);              // RACE
    wmemcpy(record.block, source, copy_size); // RACE
    wmemset(record.blank, L'.', copy_size);   // RACE
    return arg;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_mutex_lock(&lock);
    const wchar_t name = record.name[0];   // RACE
    const wchar_t block = record.block[0]; // RACE
    const wchar_t blank = record.blank[0]; // RACE
    pthread_mutex_unlock(&lock);
    pthread_join(t, NULL);
    printf("%d %d %d\n", (int)name, (int)block, (int)blank);
    return 0;
}
