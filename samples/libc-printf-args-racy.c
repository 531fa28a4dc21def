// libc-printf-args.c without the mutex: the worker's fprintf reads the name (%s) that main
// rewrites, and stores its %n count that main reads; main's snprintf reads the line the worker
// writes; the asprintf text pointer reaches main through a relaxed flag.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char name[32] = "first";
static int count;
static char line[64] = "none";
static char* text;
static FILE* sink;
static atomic_int stage;

static void* worker(void* arg) {
    (void)arg;
    fprintf(sink, "name=%s%n\n", name, &count);          // RACE
    strcpy(line, "worker line");                         // RACE
    if (asprintf(&text, "%s!", "done") < 0) text = NULL; // RACE
    atomic_store_explicit(&stage, 1, memory_order_relaxed);
    return NULL;
}

int main(void) {
    sink = fopen("/dev/null", "w");
    if (sink == NULL) return 1;
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    strcpy(name, "renamed"); // RACE
    const int seen = count;  // RACE
    char copy[80];
    snprintf(copy, sizeof copy, "copy of %s", line); // RACE
    while (!atomic_load_explicit(&stage, memory_order_relaxed)) {
    }
    char* got = text; // RACE
    pthread_join(t, NULL);
    fprintf(sink, "%d %s %s\n", seen, copy, got != NULL ? got : "-");
    free(text);
    fclose(sink);
    return 0;
}
