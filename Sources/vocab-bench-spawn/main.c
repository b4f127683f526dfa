// vocab-bench-spawn RESULT PROGRAM [ARGUMENT...]
//
// Runs PROGRAM as its child and writes "<status> <wall nanoseconds> <peak resident KiB>" to
// RESULT. vocab-bench measures every child through this small process: Linux counts in a
// child's peak memory the memory of the process it was spawned from (the address space it
// shared or copied until exec), which for vocab-bench itself is tens of MiB; from this
// program it is under 2 MiB. Standard input, output and error pass through.
#define _GNU_SOURCE
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: vocab-bench-spawn RESULT PROGRAM [ARGUMENT...]\n");
        return 2;
    }
    // Only standard input, output and error go on: the descriptors vocab-bench has open (its
    // sockets and files) would take the child's low numbers, and a program that sizes its
    // tables by the descriptors it opens itself (wrk's event loop) would refuse its own.
    closefrom(3);
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t pid;
    int spawned = posix_spawnp(&pid, argv[2], NULL, NULL, argv + 2, environ);
    if (spawned != 0) {
        fprintf(stderr, "vocab-bench-spawn: cannot start %s: %s\n", argv[2], strerror(spawned));
        return 127;
    }
    int status = 0;
    struct rusage usage;
    while (wait4(pid, &status, 0, &usage) < 0) {
        if (errno != EINTR) { perror("vocab-bench-spawn: wait4"); return 126; }
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    long long nanoseconds = (long long)(end.tv_sec - start.tv_sec) * 1000000000LL + (end.tv_nsec - start.tv_nsec);
    FILE *result = fopen(argv[1], "w");
    if (result == NULL) { perror("vocab-bench-spawn: result file"); return 125; }
    fprintf(result, "%d %lld %ld\n", status, nanoseconds, usage.ru_maxrss);
    fclose(result);
    return 0;
}
