// The system databases (rt_libc_user_db.cpp): getpwuid/getpwnam/getgrgid/gethostbyname return
// storage the C library overwrites at the next lookup, so threads use them under a mutex and
// copy what they need; the reentrant forms (getpwuid_r, getgrgid_r, gethostbyname_r) write each
// thread's own buffers, and getservbyname and getprotobyname are used under the mutex too.
// No race.
#define _GNU_SOURCE
#include <grp.h>
#include <netdb.h>
#include <pthread.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char home[4][128];

static void* worker(void* arg) {
    const long id = (long)arg;
    for (int i = 0; i < 5; ++i) {
        pthread_mutex_lock(&lock);
        struct passwd* pw = i % 2 ? getpwnam("root") : getpwuid(0);
        if (pw != NULL) snprintf(home[id], sizeof home[id], "%s", pw->pw_dir);
        struct group* gr = getgrgid(0);
        struct hostent* h = gethostbyname("localhost");
        struct servent* s = getservbyname("http", "tcp");
        struct protoent* p = getprotobyname("tcp");
        const int known = (gr != NULL) + (h != NULL) + (s != NULL) + (p != NULL);
        pthread_mutex_unlock(&lock);
        (void)known;

        struct passwd own;
        struct passwd* found;
        char buf[1024];
        if (getpwuid_r(0, &own, buf, sizeof buf, &found) == 0 && found != NULL)
            home[id][0] = own.pw_dir[0];
        struct group gown;
        struct group* gfound;
        char gbuf[1024];
        (void)getgrgid_r(0, &gown, gbuf, sizeof gbuf, &gfound);
        struct hostent hown;
        struct hostent* hfound;
        char hbuf[1024];
        int herr;
        (void)gethostbyname_r("localhost", &hown, hbuf, sizeof hbuf, &hfound, &herr);
    }
    return NULL;
}

int main(void) {
    pthread_t t[4];
    for (long i = 0; i < 4; ++i)
        pthread_create(&t[i], NULL, worker, (void*)i);
    for (int i = 0; i < 4; ++i)
        pthread_join(t[i], NULL);
    printf("%s %s\n", home[0], home[3]);
    return 0;
}
