// What the processes of a traced program print is what they print untraced: a fork child that
// execs this program again (an instrumented helper, traced into exec-<pid>), a shell that is not
// instrumented, a failed exec whose error the program prints, all writing to stdout and stderr.
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int wait_for(pid_t child) {
    int status;
    return waitpid(child, &status, 0) == child && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int main(int argc, char** argv) {
    if (argc > 1 && strcmp(argv[1], "helper") == 0) {
        printf("helper out\n");
        fprintf(stderr, "helper err\n");
        return 0;
    }
    printf("main out\n");
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        execl("/proc/self/exe", argv[0], "helper", (char*)NULL);
        _exit(127);
    }
    if (wait_for(child) != 0) return 1;
    child = fork();
    if (child == 0) {
        execl("/bin/sh", "sh", "-c", "echo shell out; echo shell err >&2", (char*)NULL);
        _exit(127);
    }
    if (wait_for(child) != 0) return 2;
    execl("/nonexistent/program", "program", (char*)NULL);
    fprintf(stderr, "exec failed: %s\n", strerror(errno));
    printf("main out again\n");
    return 0;
}
