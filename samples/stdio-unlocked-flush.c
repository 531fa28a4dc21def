// A stream written with the _unlocked calls under flockfile transmits its buffer without
// fflush (XSH 2.5) as the locked calls do: putc_unlocked fills a fully buffered stream until a
// character overflows it (glibc's inline body calls __overflow, which transmits; without
// optimization the call itself), fwrite_unlocked overflows another, fputs_unlocked ends a line
// of a line-buffered one, fflush_unlocked sends what a fourth holds. A reader thread that read()
// the bytes from each pipe reads the record the writer prepared before the output. Race-free
// (before: 4 false races, the transmissions were unseen; clang 14 TSan reports them too).
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

    put_record = 1;
    flockfile(put);
    for (size_t i = 0; i <= sizeof put_buffer; ++i)
        putc_unlocked('x', put);
    funlockfile(put);
    block_record = 2;
    memset(block, 'x', sizeof block);
    flockfile(blocks);
    fwrite_unlocked(block, 1, sizeof block, blocks);
    funlockfile(blocks);
    line_record = 3;
    flockfile(line);
    fputs_unlocked("a line\n", line);
    funlockfile(line);
    flockfile(flushed);
    fputs_unlocked("pending", flushed);
    flush_record = 4;
    fflush_unlocked(flushed);
    funlockfile(flushed);

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
    if (read(put_pipe[0], bytes, sizeof bytes) > 0) seen += put_record;
    if (read(block_pipe[0], bytes, sizeof bytes) > 0) seen += block_record;
    if (read(line_pipe[0], bytes, sizeof bytes) > 0) seen += line_record;
    if (read(flush_pipe[0], bytes, sizeof bytes) > 0) seen += flush_record;
    pthread_join(t, NULL);
    printf("%ld\n", seen);
    return 0;
}
