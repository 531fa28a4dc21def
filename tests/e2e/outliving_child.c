// A program whose fork child outlives it by far (a daemon that keeps running): `firstrace
// record --wait-descendants S` must return S seconds after the program's end, not when the
// child ends. The child prints its pid so the test can end it.
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
    const pid_t child = fork();
    if (child == 0) {
        // as a daemon does: leave the caller's output (a pipe the test reads to its end)
        const int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        sleep(60);
        return 0;
    }
    printf("%d\n", (int)child);
    return 0;
}
