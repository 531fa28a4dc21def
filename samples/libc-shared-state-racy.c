// The C library's shared result buffers and state used from two threads without a lock: the
// workers take turns in real time through relaxed atomics, which order nothing. localtime and
// gmtime share one static struct tm; strtok's saved position is one for the process (two
// strings tokenized at once race); getenv races with setenv (the environment); readdir on one
// directory stream from two threads; a number sscanf stores that main reads; a getaddrinfo list
// handed to main through a relaxed pointer.
#define _GNU_SOURCE
#include <dirent.h>
#include <netdb.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static DIR* shared_dir;
static int number;
static atomic_int turn;
static _Atomic(struct addrinfo*) published;

static void wait_turn(int t) {
    while (atomic_load_explicit(&turn, memory_order_relaxed) != t) {
    }
}
static void pass_turn(int t) {
    atomic_store_explicit(&turn, t, memory_order_relaxed);
}

static void* first(void* arg) {
    (void)arg;
    const time_t now = 86400;
    char text[] = "a b c";
    int n = localtime(&now)->tm_mday; // RACE
    n += strtok(text, " ") != NULL;   // RACE
    n += getenv("PATH") != NULL;      // RACE
    n += readdir(shared_dir) != NULL; // RACE
    sscanf("7", "%d", &number);       // RACE
    pass_turn(1);
    return (void*)(long)n;
}

static void* second(void* arg) {
    (void)arg;
    wait_turn(1);
    const time_t now = 86400;
    char text[] = "d,e";
    int n = gmtime(&now)->tm_mday;            // RACE
    n += strtok(text, ",") != NULL;           // RACE
    setenv("FIRSTRACE_SAMPLE_ROUND", "2", 1); // RACE
    n += readdir(shared_dir) != NULL;         // RACE
    struct addrinfo hints;
    memset(&hints, 0, sizeof hints);
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
    struct addrinfo* list = NULL;
    if (getaddrinfo("127.0.0.1", "80", &hints, &list) == 0) // RACE
        atomic_store_explicit(&published, list, memory_order_relaxed);
    pass_turn(2);
    return (void*)(long)n;
}

int main(void) {
    shared_dir = opendir(".");
    if (shared_dir == NULL) return 1;
    pthread_t t1, t2;
    pthread_create(&t1, NULL, first, NULL);
    pthread_create(&t2, NULL, second, NULL);
    wait_turn(2);
    int seen = number; // RACE
    struct addrinfo* list = atomic_load_explicit(&published, memory_order_relaxed);
    if (list != NULL) seen += list->ai_family; // RACE
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    if (list != NULL) freeaddrinfo(list);
    closedir(shared_dir);
    printf("%d\n", seen);
    return 0;
}
