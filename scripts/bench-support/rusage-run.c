/* Part 9's measure of one program run (scripts/bench-support/size.sh): runs argv[1...] as a child
 * of this small process and writes to the file argv[1] names the child's peak resident KiB and
 * its user + system milliseconds, from wait4(2)'s rusage of that child alone. Run under a large
 * parent (python3, some 14 MB), the figure counted the parent: Linux keeps a process's peak
 * resident size across exec, and a vfork'd or forked child starts with its parent's pages
 * (python3 -c 'subprocess.call(["/bin/true"])' measured 14 MB and 69 ms of CPU); from here the
 * floor is this program's own, about 1 MB and 1 ms. */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: rusage-run OUTPUT PROGRAM [ARGUMENT...]\n");
        return 2;
    }
    pid_t pid = fork();
    if (pid < 0) return 1;
    if (pid == 0) {
        execv(argv[2], argv + 2);
        _exit(127);
    }
    int status;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) < 0) return 1;
    FILE *out = fopen(argv[1], "w");
    if (!out) return 1;
    fprintf(out, "%ld %.3f\n", usage.ru_maxrss,
        (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3);
    fclose(out);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
