// The global locale (rt_libc_locale_state.cpp): main sets it before it creates the workers, which
// query it (nl_langinfo, setlocale with a null name, localeconv: queries alone do not race; the
// struct lconv localeconv refills is shared, so its calls are under a mutex), then main changes it
// again after joining them. The racy variant changes it while a worker queries it.
#include <langinfo.h>
#include <locale.h>
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long seen;

static void* worker(void* arg) {
    const char* codeset = nl_langinfo(CODESET);
    const char* current = setlocale(LC_NUMERIC, NULL);
    pthread_mutex_lock(&lock);
    const struct lconv* numbers = localeconv();
    seen += codeset[0] + numbers->decimal_point[0] + (current != NULL);
    pthread_mutex_unlock(&lock);
    return arg;
}

int main(void) {
    setlocale(LC_ALL, "C");
    pthread_t t[2];
    for (int i = 0; i < 2; ++i)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; ++i)
        pthread_join(t[i], NULL);
    setlocale(LC_ALL, "POSIX");
    printf("%ld\n", seen > 0);
    return 0;
}
