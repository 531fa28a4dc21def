// Library calls that answer into the caller's memory: a socket's name and an option, pending
// signals and a signal set, an interval timer, a thread attribute, the real/effective/saved ids,
// a configuration string, the scheduling parameters, multibyte and wide conversions of at most
// n characters, collation transforms. Each call's stored bytes are a write by the
// caller (ThreadSanitizer records the same ranges). Two workers store into shared answers under
// a mutex and main reads them after joining; into their own locals without one. The racy
// variant drops the mutex (before, the runtime saw none of these stores and missed every race).
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

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
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
    sigemptyset(&own); // a local: no race
    pthread_mutex_lock(&lock);
    getsockname(fd, (struct sockaddr*)&name, &length);
    length = sizeof type;
    getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length);
    sigpending(&pending);
    getitimer(ITIMER_REAL, &timer);
    pthread_attr_getstacksize(&attr, &stack_size);
    getresuid(&ids[0], &ids[1], &ids[2]);
    confstr(_CS_PATH, path, sizeof path);
    sched_getparam(0, &param);
    const char* from = "hello";
    mbsnrtowcs(wide, &from, 5, 16, NULL);
    const wchar_t* wide_from = L"hello";
    wcsnrtombs(narrow, &wide_from, 5, 16, NULL);
    wcsxfrm(wide, L"abc", 16);
    strxfrm_l(collated, "abc", sizeof collated, c_locale);
    pthread_mutex_unlock(&lock);
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
