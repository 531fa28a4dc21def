// A reader thread reads from `source` while main replaces that descriptor with dup2 (a log
// rotation): dup2 swaps the file atomically, so the read gets one file or the other and is no
// race. Main closes the descriptor only after joining the reader.
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static int source;

static void* reader(void* arg) {
    (void)arg;
    char c;
    if (read(source, &c, 1) != 1) return NULL;
    return NULL;
}

int main(void) {
    source = open("/dev/zero", O_RDONLY);
    int replacement = open("/dev/zero", O_RDONLY);
    if (source < 0 || replacement < 0) return 1;
    pthread_t t;
    pthread_create(&t, NULL, reader, NULL);
    if (dup2(replacement, source) < 0) return 1;
    pthread_join(t, NULL);
    close(source);
    close(replacement);
    puts("done");
    return 0;
}
