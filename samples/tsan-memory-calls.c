// LLVM 16 and later's ThreadSanitizer pass turns memcpy/memmove/memset (the compiler's memory
// intrinsics) into calls of __tsan_memcpy/__tsan_memmove/__tsan_memset; clang 14's into the libc
// names. Written out here as a newer clang emits them: each is the copy or fill it names, its
// reads and writes recorded. Two workers fill their own halves of a buffer; main copies the
// whole after joining them: race-free.
#include <pthread.h>
#include <stdio.h>

void* __tsan_memcpy(void* to, const void* from, unsigned long n);
void* __tsan_memmove(void* to, const void* from, unsigned long n);
void* __tsan_memset(void* to, int byte, unsigned long n);

static char buffer[64];
static char copy[64];

static void* fill(void* arg) {
    char* half = arg;
    __tsan_memset(half, 'a', 32);
    __tsan_memmove(half + 1, half, 16);
    return NULL;
}

int main(void) {
    pthread_t workers[2];
    pthread_create(&workers[0], NULL, fill, buffer);
    pthread_create(&workers[1], NULL, fill, buffer + 32);
    pthread_join(workers[0], NULL);
    pthread_join(workers[1], NULL);
    __tsan_memcpy(copy, buffer, sizeof buffer);
    printf("%c\n", copy[63]);
    return 0;
}
