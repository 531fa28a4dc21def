// The scanf family's wide forms and positional arguments in both families: swscanf writes what
// its conversions assign (a wide format, wide input), sscanf with `%2$d %1$s` writes the second
// argument first, and snprintf with `%3$*1$.*2$s|%4$d%5$n` takes its width and precision from
// the first two arguments, reads the string the third points to (up to the precision) and
// stores its count through the fifth. A worker does it all under a mutex into a shared record;
// main reads the record after the join.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <wchar.h>

struct record {
    int wide_id, position_id, count;
    double value;
    wchar_t wide_name[16];
    char name[16], label[16], line[64];
};
static struct record shared = {.label = "label"};
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void* worker(void* arg) {
    pthread_mutex_lock(&lock);
    swscanf(L"41 wide 2.5", L"%d %15ls %lf", &shared.wide_id, shared.wide_name, &shared.value);
    sscanf("7 seven", "%2$d %1$15s", shared.name, &shared.position_id);
    snprintf(shared.line, sizeof shared.line, "%3$*1$.*2$s|%4$d%5$n", 8, 3, shared.label,
             shared.position_id, &shared.count);
    pthread_mutex_unlock(&lock);
    return arg;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_mutex_lock(&lock);
    shared.label[0] = 'L';
    pthread_mutex_unlock(&lock);
    pthread_join(t, NULL);
    printf("%d %ls %.1f %d %s [%s] %d\n", shared.wide_id, shared.wide_name, shared.value,
           shared.position_id, shared.name, shared.line, shared.count);
    return 0;
}
