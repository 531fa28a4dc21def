// stdio-unlocked-flush with each record written after the output that transmitted it: every
// read of a record races with its write.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int put_pipe[2], block_pipe[2], line_pipe[2], flush_pipe[2];
static int put_record, block_record, line_record, flush_record;

static FILE* stream(int fd, char* buffer, int mode, size_t size) {
    FILE* f = fdopen(fd, "w");
    setvbuf(f, buffer, mode, size);
    return f;
}

static void* writer(void* arg) {
    static char put_buffer[256], block_buffer[256], line_buffer[256], flush_buffer[256];
    static char block[600];
    FILE* put = stream(put_pipe[1], put_buffer, _IOFBF, sizeof put_buffer);
    FILE* blocks = stream(block_pipe[1], block_buffer, _IOFBF, sizeof block_buffer);
    FILE* line = stream(line_pipe[1], line_buffer, _IOLBF, sizeof line_buffer);
    FILE* flushed = stream(flush_pipe[1], flush_buffer, _IOFBF, sizeof flush_buffer);

    flockfile(put);
    for (size_t i = 0; i <= sizeof put_buffer; ++i)
        putc_unlocked('x', put);
    funlockfile(put);
    put_record = 1; // RACE BUG in writer
    memset(block, 'x', sizeof block);
    flockfile(blocks);
    fwrite_unlocked(block, 1, sizeof block, blocks);
    funlockfile(blocks);
    block_record = 2; // RACE
    flockfile(line);
    fputs_unlocked("a line\n", line);
    funlockfile(line);
    line_record = 3; // RACE
    flockfile(flushed);
    fputs_unlocked("pending", flushed);
    fflush_unlocked(flushed);
    funlockfile(flushed);
    flush_record = 4; // RACE

    usleep(20000); // the reader has read every part before the streams are closed
    fclose(put);
    fclose(blocks);
    fclose(line);
    fclose(flushed);
    return arg;
}

int main(void) {
    if (pipe(put_pipe) != 0 || pipe(block_pipe) != 0 || pipe(line_pipe) != 0 ||
        pipe(flush_pipe) != 0)
        return 1;
    pthread_t t;
    pthread_create(&t, NULL, writer, NULL);
    char bytes[1024];
    long seen = 0;
    if (read(put_pipe[0], bytes, sizeof bytes) > 0) seen += put_record;     // RACE
    if (read(block_pipe[0], bytes, sizeof bytes) > 0) seen += block_record; // RACE
    if (read(line_pipe[0], bytes, sizeof bytes) > 0) seen += line_record;   // RACE
    if (read(flush_pipe[0], bytes, sizeof bytes) > 0) seen += flush_record; // RACE
    pthread_join(t, NULL);
    printf("%ld\n", seen);
    return 0;
}
