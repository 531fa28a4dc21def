// C library calls that store results through the program's pointers or parse its strings
// (rt_libc_results.cpp), on data shared under a mutex: a worker fills a struct tm with
// localtime_r/gmtime_r, a struct stat with stat/fstat, a time with clock_gettime, advances a
// shared rand_r seed and writes a number's text; main formats the time with asctime_r, reads
// the size, advances the seed and parses the text with strtol/strtod. No race.
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct tm shared_tm;
static struct stat shared_st;
static struct timespec shared_ts;
static unsigned seed = 1;
static char number[32] = "17";

static void* worker(void* arg) {
    (void)arg;
    const time_t now = time(NULL);
    pthread_mutex_lock(&lock);
    localtime_r(&now, &shared_tm);
    gmtime_r(&now, &shared_tm);
    stat("/", &shared_st);
    const int fd = open("/dev/null", O_RDONLY);
    if (fd >= 0) {
        fstat(fd, &shared_st);
        close(fd);
    }
    clock_gettime(CLOCK_MONOTONIC, &shared_ts);
    seed += (unsigned)rand_r(&seed) % 7;
    snprintf(number, sizeof number, "%d.5", 42);
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    char text[32], cwd[256];
    pthread_mutex_lock(&lock);
    const long whole = strtol(number, NULL, 10);
    char* end;
    const double value = strtod(number, &end);
    const int r = rand_r(&seed);
    const long size = (long)shared_st.st_size;
    asctime_r(&shared_tm, text);
    const long nanoseconds = shared_ts.tv_nsec;
    pthread_mutex_unlock(&lock);
    pthread_join(t, NULL);
    const char* dir = getcwd(cwd, sizeof cwd);
    printf("%ld %g %d %ld %ld %d %d\n", whole, value, r % 2, size, nanoseconds % 2, *end == 0,
           dir != NULL);
    return 0;
}
