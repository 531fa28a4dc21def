// The printf family reads its format's %s arguments and writes its %n ones
// (rt_printf_args.cpp, rt_stdio_printf.cpp), on data shared under a mutex: a worker renames a
// record and prints it with fprintf (%s, %.3s, %n into a shared count), snprintf, asprintf and
// dprintf; main prints the name and the count and frees the asprintf text after the join.
// No race.
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char name[32] = "first";
static int count;
static char line[64];
static char* text;
static FILE* sink;
static int sink_fd;

static void* worker(void* arg) {
    (void)arg;
    for (int i = 0; i < 3; ++i) {
        pthread_mutex_lock(&lock);
        strcpy(name, i % 2 ? "second" : "third");
        fprintf(sink, "name=%s short=%.3s%n\n", name, name, &count);
        snprintf(line, sizeof line, "[%s] %d", name, count);
        dprintf(sink_fd, "%s/%d\n", name, i);
        pthread_mutex_unlock(&lock);
    }
    pthread_mutex_lock(&lock);
    if (asprintf(&text, "%s:%d", name, count) < 0) text = NULL;
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(void) {
    sink = fopen("/dev/null", "w");
    sink_fd = open("/dev/null", O_WRONLY);
    if (sink == NULL || sink_fd < 0) return 1;
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    for (int i = 0; i < 3; ++i) {
        pthread_mutex_lock(&lock);
        fprintf(sink, "main sees %s (%d) %s\n", name, count, line);
        pthread_mutex_unlock(&lock);
    }
    pthread_join(t, NULL);
    fprintf(sink, "%s\n", text != NULL ? text : "-");
    free(text);
    fclose(sink);
    close(sink_fd);
    return 0;
}
