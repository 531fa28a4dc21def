// stdio-memory-input with main rewriting the text while the reader's fgets and fscanf copy
// it from the buffer (before: no race, the stream's reads of the buffer were unseen; clang 14
// TSan misses them too).
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char text[4096];
static atomic_int reading;

static void* reader(void* arg) {
    FILE* f = fmemopen(text, sizeof text, "r");
    setvbuf(f, NULL, _IOFBF, 64);
    atomic_store_explicit(&reading, 1, memory_order_relaxed);
    char line[128];
    long lines = 0;
    while (fgets(line, sizeof line, f) != NULL && line[0] != '.') // RACE
        lines++;
    int number = 0;
    if (fscanf(f, "%d", &number) == 1) // RACE?
        lines += number;
    fclose(f);
    (void)arg;
    return (void*)lines;
}

int main(void) {
    for (int i = 0; i < 50; ++i)
        memcpy(text + 40 * i, "a line of text, and then more of it....\n", 40);
    memcpy(text + 2000, ".\n17\n", 5);
    pthread_t t;
    pthread_create(&t, NULL, reader, NULL);
    while (!atomic_load_explicit(&reading, memory_order_relaxed))
        usleep(10);
    memset(text + 1000, 'y', 1000); // RACE
    memcpy(text + 2002, "18", 2);   // RACE?
    void* lines;
    pthread_join(t, &lines);
    printf("%ld\n", (long)lines);
    return 0;
}
