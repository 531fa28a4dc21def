// libc-regex-names.c with the orders broken: the worker matches with a pattern that main
// compiles only after starting it (a relaxed flag orders nothing), tmpnam(NULL) fills its one
// static buffer in both threads, and perror reads a message main rewrites.
#define _GNU_SOURCE
#include <pthread.h>
#include <regex.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

static regex_t pattern;
static char message[64] = "first message";
static atomic_int compiled;

static void* worker(void* arg) {
    (void)arg;
    while (!atomic_load_explicit(&compiled, memory_order_relaxed)) {
    }
    regmatch_t m[2];
    const int r = regexec(&pattern, "key=value", 2, m, 0); // RACE
    char* name = tmpnam(NULL);                             // RACE
    perror(message);                                       // RACE
    return r == 0 && name != NULL ? message : NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    regcomp(&pattern, "^([a-z]+)=", REG_EXTENDED); // RACE
    atomic_store_explicit(&compiled, 1, memory_order_relaxed);
    char* name = tmpnam(NULL);         // RACE
    strcpy(message, "second message"); // RACE
    pthread_join(t, NULL);
    regfree(&pattern);
    printf("%d\n", name != NULL);
    return 0;
}
