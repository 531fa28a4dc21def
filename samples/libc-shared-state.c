// C library calls whose results live in memory the library owns, used as POSIX allows: the
// static struct tm of localtime/gmtime and the text of asctime/ctime, strtok's saved position
// and the environment (setenv, getenv) under a mutex;
// readdir on each worker's own directory stream (calls on different streams do not race, and
// glibc hands the freed DIR blocks from one worker to the other), readdir on a shared stream
// under the mutex, readdir_r on a shared stream without it (thread-safe); getaddrinfo lists
// made by a worker and read and freed by main after the join; sscanf into a struct under the
// mutex.
#define _GNU_SOURCE
#include <dirent.h>
#include <netdb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// readdir_r is deprecated by glibc (readdir is thread-safe across streams) but still used
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static DIR* shared_dir;
static DIR* shared_dir_r;
static int years, tokens, entries, scanned_total;
static char first_name[256];
static struct {
    int number;
    char word[16];
    double real;
    int consumed;
} record;

static void* worker(void* arg) {
    struct addrinfo** list = arg;
    const time_t now = 86400 * 365;
    for (int i = 0; i < 10; ++i) {
        pthread_mutex_lock(&lock);
        years += localtime(&now)->tm_year + gmtime(&now)->tm_year;
        char text[32];
        strcpy(text, asctime(gmtime(&now)));
        years += (int)strlen(ctime(&now)) - (int)strlen(text);
        char line[] = "a b,c d";
        for (char* t = strtok(line, " ,"); t != NULL; t = strtok(NULL, " ,"))
            ++tokens;
        setenv("FIRSTRACE_SAMPLE_ROUND", "1", 1);
        struct dirent* e = readdir(shared_dir);
        if (e != NULL) {
            ++entries;
            strcpy(first_name, e->d_name);
        }
        if (sscanf("42 word 2.5", "%d %15s %lf%n", &record.number, record.word, &record.real,
                   &record.consumed) == 3)
            scanned_total += record.number + record.consumed;
        if (getenv("PATH") == NULL) ++tokens;
        pthread_mutex_unlock(&lock);
        struct dirent entry;
        struct dirent* result;
        if (readdir_r(shared_dir_r, &entry, &result) == 0 && result != NULL && entry.d_name[0] == 0)
            ++tokens;
    }
    for (int i = 0; i < 20; ++i) {
        DIR* own = opendir(".");
        if (own == NULL) break;
        int n = 0;
        for (struct dirent* e; (e = readdir(own)) != NULL;)
            n += e->d_name[0] != 0;
        closedir(own);
    }
    struct addrinfo hints;
    memset(&hints, 0, sizeof hints);
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
    hints.ai_socktype = SOCK_STREAM;
    if (getaddrinfo("127.0.0.1", "80", &hints, list) != 0) *list = NULL;
    return NULL;
}

int main(void) {
    shared_dir = opendir(".");
    shared_dir_r = opendir(".");
    if (shared_dir == NULL || shared_dir_r == NULL) return 1;
    struct addrinfo* lists[2];
    pthread_t t1, t2;
    pthread_create(&t1, NULL, worker, &lists[0]);
    pthread_create(&t2, NULL, worker, &lists[1]);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    int families = 0;
    for (int i = 0; i < 2; ++i) {
        for (struct addrinfo* a = lists[i]; a != NULL; a = a->ai_next)
            families += a->ai_family;
        if (lists[i] != NULL) freeaddrinfo(lists[i]);
    }
    closedir(shared_dir);
    closedir(shared_dir_r);
    printf("%d %d %d %d %d %s\n", years, tokens, entries, scanned_total, families,
           getenv("FIRSTRACE_SAMPLE_ROUND"));
    return 0;
}
