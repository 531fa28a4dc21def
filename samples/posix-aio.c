// POSIX asynchronous I/O: a request's transfer happens between its submission and its
// completion, and a thread that observes the completion (aio_error, aio_suspend, aio_return,
// lio_listio with LIO_WAIT) is ordered after the transfer. A worker fills a record and writes
// it with aio_write, then reads it back into a second buffer with aio_read; main, which gets the
// control block through a mutex right after the submission, waits for that read with
// aio_suspend before using the buffer; then main writes two buffers with lio_listio(LIO_WAIT)
// and hands them to a second worker.
#include <aio.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int file;
static char record[256], copy[256];
static char first[128], second[128];
static struct aiocb read_request;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t submitted = PTHREAD_COND_INITIALIZER;
static int read_submitted;

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
    record[0] = 'R'; // the transfer read the record before the completion observed

    prepare(&read_request, copy, sizeof copy);
    if (aio_read(&read_request) != 0) exit(1);
    pthread_mutex_lock(&lock);
    read_submitted = 1;
    pthread_cond_signal(&submitted);
    pthread_mutex_unlock(&lock);
    return NULL;
}

static void* user(void* arg) {
    (void)arg;
    printf("%c %c\n", first[0], second[0]);
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
    wait_for(&read_request); // the mutex orders main after the submission only
    printf("copy %c %zd\n", copy[0], aio_return(&read_request));
    pthread_join(worker, NULL);

    memset(first, '1', sizeof first);
    memset(second, '2', sizeof second);
    struct aiocb requests[2];
    char* buffers[2] = {first, second};
    struct aiocb* list[2];
    for (int i = 0; i < 2; ++i) {
        prepare(&requests[i], buffers[i], sizeof first);
        requests[i].aio_offset = (off_t)(i * sizeof first);
        requests[i].aio_lio_opcode = LIO_WRITE;
        list[i] = &requests[i];
    }
    if (lio_listio(LIO_WAIT, list, 2, NULL) != 0) return 1;
    pthread_t reader;
    pthread_create(&reader, NULL, user, NULL);
    first[1] = 'x'; // after the transfers: no race with them (the reader reads [0] only)
    pthread_join(reader, NULL);
    close(file);
    return 0;
}
