// libc-query-outputs without the mutex: the two workers' calls store into the shared answers
// unordered (before, the runtime saw none of these stores and missed every race; clang 14
// ThreadSanitizer reports each).
#define _GNU_SOURCE
#include <locale.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include <wchar.h>

static pthread_barrier_t both;
static int fd;
static struct sockaddr_in name;
static int type;
static sigset_t pending;
static struct itimerval timer;
static size_t stack_size;
static uid_t ids[3];
static char path[256];
static struct sched_param param;
static wchar_t wide[16];
static char narrow[16], collated[64];

static void* worker(void* arg) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    locale_t c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    sigset_t own;
    socklen_t length = sizeof name;
    pthread_barrier_wait(&both);
    sigemptyset(&own);                                 // a local: no race
    getsockname(fd, (struct sockaddr*)&name, &length); // RACE BUG in worker NAMED name
    length = sizeof type;
    getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length); // RACE
    sigpending(&pending);                                // RACE
    getitimer(ITIMER_REAL, &timer);                      // RACE
    pthread_attr_getstacksize(&attr, &stack_size);       // RACE
    getresuid(&ids[0], &ids[1], &ids[2]);                // RACE
    confstr(_CS_PATH, path, sizeof path);                // RACE
    sched_getparam(0, &param);                           // RACE
    const char* from = "hello";
    mbsnrtowcs(wide, &from, 5, 16, NULL); // RACE
    const wchar_t* wide_from = L"hello";
    wcsnrtombs(narrow, &wide_from, 5, 16, NULL);           // RACE
    wcsxfrm(wide, L"abc", 16);                             // RACE
    strxfrm_l(collated, "abc", sizeof collated, c_locale); // RACE
    pthread_attr_destroy(&attr);
    freelocale(c_locale);
    return arg;
}

int main(void) {
    fd = socket(AF_INET, SOCK_DGRAM, 0);
    pthread_barrier_init(&both, NULL, 2);
    pthread_t t[2];
    for (int i = 0; i < 2; ++i)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; ++i)
        pthread_join(t[i], NULL);
    printf("%d %d %d %ld %zu %d %s %d\n", name.sin_family, type, sigismember(&pending, SIGINT),
           (long)timer.it_value.tv_sec, stack_size, (int)ids[0], path, param.sched_priority);
    return 0;
}
