// Lines handed over a pipe with stdio on both ends: the producer fills a record, prints its
// index with fprintf and flushes; the consumer reads lines with fgets (and the last ones with
// getline and fscanf) from fdopen's stream and reads the record; after end of file, the
// summary the producer wrote before fclose. The C library reads the pipe inside the input
// calls and writes it inside fflush and fclose: a line read is ordered after the flush that
// sent it, end of file after the close.
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
        records[i] = i * 10;
        fprintf(out, "%d\n", i);
        fflush(out);
    }
    summary = RECORDS;
    fclose(out);
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
        total += records[atoi(line)];
    char* text = NULL;
    size_t size = 0;
    if (getline(&text, &size, in) > 0) total += records[atoi(text)];
    free(text);
    int i;
    if (fscanf(in, "%d", &i) == 1) total += records[i];
    while (fgets(line, sizeof line, in) != NULL) {
    }
    const int count = summary;
    fclose(in);
    pthread_join(t, NULL);
    printf("%ld %d\n", total, count);
    return 0;
}
