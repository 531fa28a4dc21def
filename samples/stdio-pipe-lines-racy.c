// stdio-pipe-lines with the producer changing each record after flushing its line and setting
// the summary after closing: a line read is ordered after the flush that sent it, end of file
// after the close, not after what the producer does next.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define RECORDS 6

static int records[RECORDS];
static int summary;
static int fds[2];

static void* producer(void* arg) {
    (void)arg;
    FILE* out = fdopen(fds[1], "w");
    for (int i = 0; i < RECORDS; ++i) {
        fprintf(out, "%d\n", i);
        fflush(out);
        records[i] = i * 10; // RACE
    }
    fclose(out);
    summary = RECORDS; // RACE
    return NULL;
}

int main(void) {
    if (pipe(fds) != 0) return 1;
    pthread_t t;
    pthread_create(&t, NULL, producer, NULL);
    FILE* in = fdopen(fds[0], "r");
    long total = 0;
    char line[32];
    for (int k = 0; k < RECORDS - 2 && fgets(line, sizeof line, in) != NULL; ++k)
        total += records[atoi(line)]; // RACE?
    char* text = NULL;
    size_t size = 0;
    if (getline(&text, &size, in) > 0) total += records[atoi(text)]; // RACE?
    free(text);
    int i;
    if (fscanf(in, "%d", &i) == 1) total += records[i]; // RACE
    while (fgets(line, sizeof line, in) != NULL) {
    }
    const int count = summary; // RACE
    fclose(in);
    pthread_join(t, NULL);
    printf("%ld %d\n", total, count);
    return 0;
}
