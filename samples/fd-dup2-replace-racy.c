// fd-dup2-replace.c, but a cleanup thread closes the descriptor while main may still be
// replacing it with dup2: which file the number names afterwards depends on the schedule.
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static int source;

static void* cleanup(void* arg) {
    (void)arg;
    close(source); // RACE
    return NULL;
}

int main(void) {
    source = open("/dev/zero", O_RDONLY);
    int replacement = open("/dev/zero", O_RDONLY);
    if (source < 0 || replacement < 0) return 1;
    pthread_t t;
    pthread_create(&t, NULL, cleanup, NULL);
    dup2(replacement, source); // RACE
    pthread_join(t, NULL);
    close(replacement);
    puts("done");
    return 0;
}
