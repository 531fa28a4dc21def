// Flush synchronization as OpenMP 5.1 1.4.6 defines it: a flush without a list is a release and
// an acquire flush; a release flush before an atomic write and an acquire flush after an atomic
// read that reads its value order the data written before with the data read after (clang calls
// __kmpc_flush, gcc emits a fence). The flag is atomic, the data plain: no race (flush-racy: a
// plain flag orders nothing).
#include <omp.h>
#include <stdio.h>

static int data, flag, got;

int main(void) {
#pragma omp parallel num_threads(2)
    {
        if (omp_get_num_threads() == 2) {
            if (omp_get_thread_num() == 0) {
                data = 42;
#pragma omp flush
#pragma omp atomic write
                flag = 1;
            } else {
                int seen = 0;
                while (!seen) {
#pragma omp atomic read
                    seen = flag;
                }
#pragma omp flush
                got = data;
            }
        }
    }
    printf("%d\n", got);
    return 0;
}
