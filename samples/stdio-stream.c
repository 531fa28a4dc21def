// One FILE shared by two threads (POSIX XSH 2.5: every stdio call locks the stream, as if it
// called flockfile/funlockfile): fputc, fprintf, fseek/ftell, fgetpos/fsetpos, feof/ferror/
// clearerr, fgetc/ungetc and fflush on one stream never race on it. flockfile is the program's
// own lock on the stream (recursive): a count kept beside the stream and putc_unlocked/
// getc_unlocked/feof_unlocked inside it are ordered by it, and a plain fgetc by another thread
// does not race with them (it takes the same lock). Then each worker opens, reads and closes
// streams 50 times: glibc hands the freed FILE blocks from one thread to the other, ordered by
// the allocator.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>

static FILE* shared;
static int lines_written; // under flockfile(shared)

static void* worker(void* arg) {
    const int c = *(const char*)arg;
    for (int i = 0; i < 20; ++i) {
        fputc(c, shared);
        fprintf(shared, "%d\n", i);
        fseek(shared, 0, SEEK_END);
        (void)ftell(shared);
        fpos_t pos;
        if (fgetpos(shared, &pos) == 0) fsetpos(shared, &pos);
        if (feof(shared) || ferror(shared)) clearerr(shared);
        fflush(shared);
        flockfile(shared);
        flockfile(shared); // recursive: the same thread takes it again
        putc_unlocked(c, shared);
        putc_unlocked('\n', shared);
        if (!feof_unlocked(shared)) ++lines_written;
        funlockfile(shared);
        funlockfile(shared);
        while (ftrylockfile(shared) != 0) {
        }
        ++lines_written;
        funlockfile(shared);
    }
    for (int i = 0; i < 50; ++i) {
        FILE* f = fopen("/dev/zero", "r");
        if (f == NULL) break;
        int b = fgetc(f);
        if (ungetc(b, f) != b) b = getc(f);
        rewind(f);
        (void)fileno(f);
        setvbuf(f, NULL, _IONBF, 0);
        fclose(f);
    }
    return NULL;
}

int main(void) {
    shared = tmpfile();
    if (shared == NULL) return 1;
    char a = 'a', b = 'b';
    pthread_t t1, t2;
    pthread_create(&t1, NULL, worker, &a);
    pthread_create(&t2, NULL, worker, &b);
    for (int i = 0; i < 20; ++i) {
        rewind(shared);
        while (fgetc(shared) != EOF) {
        }
    }
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    printf("%d lines\n", lines_written);
    fclose(shared);
    return 0;
}
