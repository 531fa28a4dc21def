// An fmemopen stream opened for reading copies the caller's buffer into the stream's own when
// an input call refills it (XSH fmemopen): the reads of the buffer happen inside fgets and
// fscanf. The buffer is filled before the reader thread is created and rewritten after it is
// joined. Race-free; the racy variant rewrites it while the reader reads.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static char text[4096];

static void* reader(void* arg) {
    (void)arg;
    FILE* f = fmemopen(text, sizeof text, "r");
    char line[128];
    long lines = 0;
    while (fgets(line, sizeof line, f) != NULL && line[0] != '.')
        lines++;
    int number = 0;
    if (fscanf(f, "%d", &number) == 1) lines += number;
    fclose(f);
    return (void*)lines;
}

int main(void) {
    for (int i = 0; i < 50; ++i)
        memcpy(text + 40 * i, "a line of text, and then more of it....\n", 40);
    memcpy(text + 2000, ".\n17\n", 5);
    pthread_t t;
    pthread_create(&t, NULL, reader, NULL);
    void* lines;
    pthread_join(t, &lines);
    memcpy(text, "changed after the reader ended\n", 31);
    printf("%ld\n", (long)lines);
    return 0;
}
