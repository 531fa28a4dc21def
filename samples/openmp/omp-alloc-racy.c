// omp_alloc'd memory shared by the team: every thread writes the first element unordered.
#include <omp.h>
#include <stdio.h>

int main(void) {
    int* shared_buffer = omp_alloc(16 * sizeof(int), omp_default_mem_alloc);
    shared_buffer[0] = 0;
#pragma omp parallel num_threads(2)
    shared_buffer[0] += omp_get_thread_num(); // RACE
    printf("%d\n", shared_buffer[0]);
    omp_free(shared_buffer, omp_default_mem_alloc);
    return 0;
}
