// As posix-aio.c, but main uses the buffer of the worker's aio_read as soon as the mutex
// tells it the request was submitted, without waiting for its completion, and a second worker
// rewrites a buffer that main's lio_listio(LIO_NOWAIT) is still writing to the file.
#include <aio.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int file;
static char record[256], copy[256];
static char first[128];
static struct aiocb read_request;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t submitted = PTHREAD_COND_INITIALIZER;
static int read_submitted;
static pthread_barrier_t listed;

static void prepare(struct aiocb* request, void* buffer, size_t size) {
    memset(request, 0, sizeof *request);
    request->aio_fildes = file;
    request->aio_buf = buffer;
    request->aio_nbytes = size;
}

static void wait_for(struct aiocb* request) {
    const struct aiocb* list[1] = {request};
    while (aio_error(request) == EINPROGRESS)
        aio_suspend(list, 1, NULL);
}

static void* writer_and_reader(void* arg) {
    (void)arg;
    memset(record, 'r', sizeof record);
    struct aiocb write_request;
    prepare(&write_request, record, sizeof record);
    if (aio_write(&write_request) != 0) exit(1);
    wait_for(&write_request);
    if (aio_return(&write_request) != sizeof record) exit(1);

    prepare(&read_request, copy, sizeof copy);
    if (aio_read(&read_request) != 0) exit(1); // RACE
    pthread_mutex_lock(&lock);
    read_submitted = 1;
    pthread_cond_signal(&submitted);
    pthread_mutex_unlock(&lock);
    return NULL;
}

static void* rewriter(void* arg) {
    (void)arg;
    pthread_barrier_wait(&listed);
    memset(first, 'x', sizeof first); // RACE
    return NULL;
}

int main(void) {
    char name[] = "/tmp/posix-aio-XXXXXX";
    file = mkstemp(name);
    if (file < 0) return 1;
    unlink(name);

    pthread_t worker;
    pthread_create(&worker, NULL, writer_and_reader, NULL);
    pthread_mutex_lock(&lock);
    while (!read_submitted)
        pthread_cond_wait(&submitted, &lock);
    pthread_mutex_unlock(&lock);
    printf("copy %c\n", copy[0]); // RACE
    wait_for(&read_request);
    aio_return(&read_request);
    pthread_join(worker, NULL);

    pthread_barrier_init(&listed, NULL, 2);
    pthread_t second;
    pthread_create(&second, NULL, rewriter, NULL);
    memset(first, '1', sizeof first);
    struct aiocb request;
    prepare(&request, first, sizeof first);
    request.aio_lio_opcode = LIO_WRITE;
    struct aiocb* list[1] = {&request};
    if (lio_listio(LIO_NOWAIT, list, 1, NULL) != 0) return 1; // RACE
    pthread_barrier_wait(&listed);
    wait_for(&request);
    aio_return(&request);
    pthread_join(second, NULL);
    close(file);
    return 0;
}
