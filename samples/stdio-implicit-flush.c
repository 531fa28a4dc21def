// A stream transmits its buffer without fflush (XSH 2.5): a fully buffered stream when an
// output call overflows its buffer (fwrite of 600 bytes into 256), an unbuffered one at every
// call (fprintf), a line-buffered one at a newline (fputs). A reader thread that read() the
// bytes from the pipe reads the record the writer prepared before the output call. Race-free
// (before: 3 false races, the calls' writes to the pipe were unseen; clang 14 TSan reports
// them too).
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int full_pipe[2], unbuffered_pipe[2], line_pipe[2];
static int full_record, unbuffered_record, line_record;

static void* writer(void* arg) {
    static char full_buffer[256], line_buffer[256], block[600];
    FILE* full = fdopen(full_pipe[1], "w");
    setvbuf(full, full_buffer, _IOFBF, sizeof full_buffer);
    FILE* unbuffered = fdopen(unbuffered_pipe[1], "w");
    setvbuf(unbuffered, NULL, _IONBF, 0);
    FILE* line = fdopen(line_pipe[1], "w");
    setvbuf(line, line_buffer, _IOLBF, sizeof line_buffer);

    full_record = 1;
    memset(block, 'x', sizeof block);
    fwrite(block, 1, sizeof block, full);
    unbuffered_record = 2;
    fprintf(unbuffered, "%d", unbuffered_record);
    line_record = 3;
    fputs("a line\n", line);

    usleep(20000); // the reader has read every part before the streams are closed
    fclose(full);
    fclose(unbuffered);
    fclose(line);
    return arg;
}

int main(void) {
    pipe(full_pipe);
    pipe(unbuffered_pipe);
    pipe(line_pipe);
    pthread_t t;
    pthread_create(&t, NULL, writer, NULL);
    char bytes[256];
    long seen = 0;
    if (read(full_pipe[0], bytes, sizeof bytes) > 0) seen += full_record;
    if (read(unbuffered_pipe[0], bytes, sizeof bytes) > 0) seen += unbuffered_record;
    if (read(line_pipe[0], bytes, sizeof bytes) > 0) seen += line_record;
    pthread_join(t, NULL);
    printf("%ld\n", seen);
    return 0;
}
