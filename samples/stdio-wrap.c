// A program that wraps fopen itself and calls on to the runtime's interceptor by its
// __interceptor_ name (as with ThreadSanitizer, whose runtime defines every interceptor f as
// __interceptor_f). Two threads each open, read and close their own stream: a descriptor number
// closed by one thread and handed out again to the other is a new file, not shared.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>

FILE* __interceptor_fopen(const char* path, const char* mode);

static int opened;
static pthread_mutex_t opened_lock = PTHREAD_MUTEX_INITIALIZER;

FILE* fopen(const char* path, const char* mode) {
    pthread_mutex_lock(&opened_lock);
    ++opened;
    pthread_mutex_unlock(&opened_lock);
    return __interceptor_fopen(path, mode);
}

static void* reader(void* arg) {
    char* byte = arg;
    for (int i = 0; i < 50; ++i) {
        FILE* f = fopen("/dev/zero", "r");
        if (f == NULL) return NULL;
        if (fread(byte, 1, 1, f) != 1) *byte = 1;
        fclose(f);
    }
    return NULL;
}

int main(void) {
    char bytes[2] = {1, 1};
    pthread_t t1, t2;
    pthread_create(&t1, NULL, reader, &bytes[0]);
    pthread_create(&t2, NULL, reader, &bytes[1]);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    printf("%d opens, %d %d\n", opened, bytes[0], bytes[1]);
    return 0;
}
