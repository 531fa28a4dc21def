// BUILD-FLAGS: -D_FORTIFY_SOURCE=2
// _FORTIFY_SOURCE's checked calls (rt_libc_fortify.cpp, rt_stdio_printf.cpp): built with
// -D_FORTIFY_SOURCE=2, the optimized builds call __memcpy_chk, __memset_chk, __strcpy_chk,
// __strcat_chk, __strncpy_chk, __snprintf_chk and __fgets_chk instead of the plain functions
// (at -O0 glibc's headers keep the plain ones). A worker fills a shared record with them under
// a mutex, main reads it under the mutex. No race.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    char name[32];
    char copy[32];
    char line[64];
    char text[64];
    char padding[16];
} record;
static volatile size_t copy_size = 8;
static char source[32] = "fortified";

static void* worker(void* arg) {
    FILE* input = arg;
    for (int i = 0; i < 3; ++i) {
        pthread_mutex_lock(&lock);
        strcpy(record.name, source);
        strcat(record.name, "-name");
        strncpy(record.copy, source, copy_size);
        memcpy(record.padding, source, copy_size);
        memset(record.padding + 8, i, copy_size);
        snprintf(record.line, sizeof record.line, "%s/%d", record.name, i);
        rewind(input);
        if (fgets(record.text, sizeof record.text, input) == NULL) record.text[0] = 0;
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

int main(void) {
    FILE* input = tmpfile();
    if (input == NULL) return 1;
    fputs("a line of input\n", input);
    fflush(input);
    pthread_t t;
    pthread_create(&t, NULL, worker, input);
    size_t total = 0;
    for (int i = 0; i < 3; ++i) {
        pthread_mutex_lock(&lock);
        total += strlen(record.name) + strlen(record.line) + strlen(record.text) +
                 (size_t)record.padding[9] + (size_t)record.copy[0];
        pthread_mutex_unlock(&lock);
    }
    pthread_join(t, NULL);
    fclose(input);
    printf("%d\n", total > 0);
    return 0;
}
