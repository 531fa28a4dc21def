// Tokenizing and the remaining string calls (rt_libc_memory.cpp): two workers split lines of a
// shared table with strtok_r (each its own save pointer) and strsep under a mutex, copy fields
// with memccpy and stpncpy, search with strcasestr and compare with strcoll/strxfrm; main
// reads the table under the mutex. No race.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char table[2][64];
static char fields[2][4][16];
static int found[2];

static void* worker(void* arg) {
    const long id = (long)arg;
    for (int round = 0; round < 3; ++round) {
        pthread_mutex_lock(&lock);
        snprintf(table[id], sizeof table[id], "alpha,Beta;gamma,delta");
        char* save = NULL;
        int k = 0;
        for (char* tok = strtok_r(table[id], ";", &save); tok != NULL && k < 2;
             tok = strtok_r(NULL, ";", &save)) {
            char* rest = tok;
            char* field = strsep(&rest, ",");
            memccpy(fields[id][2 * k], field, 0, sizeof fields[id][0]);
            if (rest != NULL) stpncpy(fields[id][2 * k + 1], rest, sizeof fields[id][0] - 1);
            ++k;
        }
        char key[16];
        strxfrm(key, fields[id][0], sizeof key);
        found[id] = strcasestr(fields[id][1], "beta") != NULL && strcoll(key, "a") > 0;
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

int main(void) {
    pthread_t t[2];
    for (long i = 0; i < 2; ++i)
        pthread_create(&t[i], NULL, worker, (void*)i);
    size_t total = 0;
    for (int round = 0; round < 3; ++round) {
        pthread_mutex_lock(&lock);
        total += strlen(fields[0][0]) + strlen(fields[1][3]) + (size_t)found[0];
        pthread_mutex_unlock(&lock);
    }
    for (int i = 0; i < 2; ++i)
        pthread_join(t[i], NULL);
    printf("%d %s %s\n", total > 0, fields[0][2], fields[1][1]);
    return 0;
}
