// Wide-oriented streams transmit as byte streams do (XSH 2.5; glibc converts its wide buffer
// into bytes and writes them): a line-buffered stream when `fputws` ends a line (the first wide
// output also allocates the wide buffer), a fully buffered one when `fputwc` overflows its wide
// buffer (glibc: 4096 wide characters), an unbuffered one at every `fwprintf`, and
// `putwc_unlocked` ending a line under `flockfile`. A reader thread that read() the bytes from
// each pipe reads the record the writer prepared before the output. Race-free (before: 4 false
// races, wide output was never a send; clang 14 TSan reports them too).
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
#include <wchar.h>

static int line_pipe[2], full_pipe[2], unbuffered_pipe[2], unlocked_pipe[2];
static int line_record, full_record, unbuffered_record, unlocked_record;

static FILE* stream(int fd, int mode) {
    FILE* f = fdopen(fd, "w");
    setvbuf(f, NULL, mode, 256);
    fwide(f, 1);
    return f;
}

static void* writer(void* arg) {
    FILE* line = stream(line_pipe[1], _IOLBF);
    FILE* full = stream(full_pipe[1], _IOFBF);
    FILE* unbuffered = stream(unbuffered_pipe[1], _IONBF);
    FILE* unlocked = stream(unlocked_pipe[1], _IOLBF);

    line_record = 1;
    fputws(L"a line\n", line);
    full_record = 2;
    for (int i = 0; i < 5000; ++i)
        fputwc(L'x', full);
    unbuffered_record = 3;
    fwprintf(unbuffered, L"%d", unbuffered_record);
    unlocked_record = 4;
    flockfile(unlocked);
    putwc_unlocked(L'y', unlocked);
    putwc_unlocked(L'\n', unlocked);
    funlockfile(unlocked);

    usleep(20000); // the reader has read every part before the streams are closed
    fclose(line);
    fclose(full);
    fclose(unbuffered);
    fclose(unlocked);
    return arg;
}

int main(void) {
    if (pipe(line_pipe) != 0 || pipe(full_pipe) != 0 || pipe(unbuffered_pipe) != 0 ||
        pipe(unlocked_pipe) != 0)
        return 1;
    pthread_t t;
    pthread_create(&t, NULL, writer, NULL);
    char bytes[4096];
    long seen = 0;
    if (read(line_pipe[0], bytes, sizeof bytes) > 0) seen += line_record;
    if (read(full_pipe[0], bytes, sizeof bytes) > 0) seen += full_record;
    if (read(unbuffered_pipe[0], bytes, sizeof bytes) > 0) seen += unbuffered_record;
    if (read(unlocked_pipe[0], bytes, sizeof bytes) > 0) seen += unlocked_record;
    pthread_join(t, NULL);
    printf("%ld\n", seen);
    return 0;
}
