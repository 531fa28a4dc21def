// libc-locale-state with the worker's calls made while main changes the locale, not before:
// setlocale's change races with the worker's nl_langinfo, localeconv and setlocale queries
// (C11 7.11.1.1p5), and the two threads' localeconv calls race on its static struct lconv.
// Before, the runtime saw none of it (glibc reads and writes its own statics; clang 14
// ThreadSanitizer reports none either).
#include <langinfo.h>
#include <locale.h>
#include <pthread.h>
#include <stdio.h>

static long seen;

static void* worker(void* arg) {
    const char* codeset = nl_langinfo(CODESET); // RACE BUG in worker NAMED firstrace_locale_state
    const struct lconv* numbers = localeconv(); // RACE
    const char* current = setlocale(LC_ALL, NULL);                                    // RACE
    return (void*)(long)(codeset[0] + numbers->decimal_point[0] + (current != NULL)); // RACE
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    setlocale(LC_ALL, "C");                     // RACE
    const struct lconv* numbers = localeconv(); // RACE
    void* r;
    pthread_join(t, &r);
    seen = (long)r + numbers->decimal_point[0];
    printf("%ld\n", seen > 0);
    return 0;
}
