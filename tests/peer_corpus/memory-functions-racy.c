// memcpy reads a buffer that another thread fills with memset at the same time; strlen and
// strcpy on a shared string under a mutex do not race.
#include <pthread.h>
#include <stdio.h>
#include <string.h>
static char source[256];
static char copy[256];
static char name[32];
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static void* filler(void* arg) {
    (void)arg;
    memset(source, 'x', sizeof source); // RACE
    pthread_mutex_lock(&m);
    strcpy(name, "filler");
    pthread_mutex_unlock(&m);
    return NULL;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, filler, NULL);
    memcpy(copy, source, sizeof copy); // RACE
    pthread_mutex_lock(&m);
    size_t n = strlen(name);
    pthread_mutex_unlock(&m);
    pthread_join(t, NULL);
    printf("%zu %c\n", n, copy[0]);
    return 0;
}
