// stdio-implicit-flush with each record written after the output call that transmits, and a
// printf-family call overflowing a fully buffered stream (its size is known only after it):
// the reader's reads of the records race with those writes.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int full_pipe[2], unbuffered_pipe[2], line_pipe[2], printf_pipe[2];
static int full_record, unbuffered_record, line_record, printf_record;

static void* writer(void* arg) {
    static char full_buffer[256], line_buffer[256], printf_buffer[64], block[600];
    FILE* full = fdopen(full_pipe[1], "w");
    setvbuf(full, full_buffer, _IOFBF, sizeof full_buffer);
    FILE* unbuffered = fdopen(unbuffered_pipe[1], "w");
    setvbuf(unbuffered, NULL, _IONBF, 0);
    FILE* line = fdopen(line_pipe[1], "w");
    setvbuf(line, line_buffer, _IOLBF, sizeof line_buffer);
    FILE* printed = fdopen(printf_pipe[1], "w");
    setvbuf(printed, printf_buffer, _IOFBF, sizeof printf_buffer);

    memset(block, 'x', sizeof block);
    fwrite(block, 1, sizeof block, full);
    full_record = 1; // RACE
    fprintf(unbuffered, "%d", 2);
    unbuffered_record = 2; // RACE
    fputs("a line\n", line);
    line_record = 3; // RACE
    fprintf(printed, "%0100d", 4);
    printf_record = 4; // RACE

    usleep(20000);
    fclose(full);
    fclose(unbuffered);
    fclose(line);
    fclose(printed);
    return arg;
}

int main(void) {
    pipe(full_pipe);
    pipe(unbuffered_pipe);
    pipe(line_pipe);
    pipe(printf_pipe);
    pthread_t t;
    pthread_create(&t, NULL, writer, NULL);
    char bytes[256];
    long seen = 0;
    if (read(full_pipe[0], bytes, sizeof bytes) > 0) seen += full_record;             // RACE
    if (read(unbuffered_pipe[0], bytes, sizeof bytes) > 0) seen += unbuffered_record; // RACE
    if (read(line_pipe[0], bytes, sizeof bytes) > 0) seen += line_record;             // RACE
    if (read(printf_pipe[0], bytes, sizeof bytes) > 0) seen += printf_record;         // RACE
    pthread_join(t, NULL);
    printf("%ld\n", seen);
    return 0;
}
