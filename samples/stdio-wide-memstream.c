// Wide-character stdio on a shared stream and streams made without fopen (rt_stdio_wide.cpp,
// rt_stdio.cpp): two workers write one FILE with fputws, fwprintf and fputwc (each call locks
// the stream: no race on it) from wide buffers they fill under a mutex; each worker also
// builds a text in an open_memstream stream and an fmemopen buffer and hands both to main
// through the join; main reads a popen'd command's output and pclose()s it. No race.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static FILE* shared;
static wchar_t message[32];

struct result {
    char* text;
    size_t size;
    char fixed[64];
};

static void* worker(void* arg) {
    struct result* r = arg;
    for (int i = 0; i < 20; ++i) {
        pthread_mutex_lock(&lock);
        swprintf(message, 32, L"line %d", i);
        fputws(message, shared);
        pthread_mutex_unlock(&lock);
        fwprintf(shared, L" %ls %d\n", L"wide", i);
        fputwc(L'.', shared);
    }
    FILE* m = open_memstream(&r->text, &r->size);
    if (m != NULL) {
        fprintf(m, "built by a worker");
        fflush(m);
        fprintf(m, ", %d lines", 20);
        fclose(m);
    }
    FILE* f = fmemopen(r->fixed, sizeof r->fixed, "w");
    if (f != NULL) {
        fputs("fixed text", f);
        fclose(f);
    }
    return NULL;
}

int main(void) {
    shared = tmpfile();
    if (shared == NULL) return 1;
    pthread_t t[2];
    struct result results[2];
    memset(results, 0, sizeof results);
    for (int i = 0; i < 2; ++i)
        pthread_create(&t[i], NULL, worker, &results[i]);
    FILE* p = popen("echo piped", "r");
    char piped[32] = "";
    if (p != NULL) {
        if (fgets(piped, sizeof piped, p) == NULL) piped[0] = 0;
        pclose(p);
    }
    for (int i = 0; i < 2; ++i)
        pthread_join(t[i], NULL);
    rewind(shared);
    wchar_t back[64];
    const int got = fgetws(back, 64, shared) != NULL;
    fclose(shared);
    printf("%d %s %zu %s %s", got, results[0].text ? results[0].text : "-", results[1].size,
           results[1].fixed, piped);
    free(results[0].text);
    free(results[1].text);
    return 0;
}
