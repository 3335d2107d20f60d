/* Starts a child once it has been running a while (after the debugger's handshake), then runs on. */
#include <stdio.h>
#include <unistd.h>

int main(void) {
    sleep(3);
    pid_t child = fork();
    if (child == 0) {
        execlp("sleep", "sleep", "301", (char *)NULL);  /* forks_later's child */
        _exit(127);
    }
    printf("child %d\n", (int)child);
    fflush(stdout);
    for (;;) {
        usleep(100000);
    }
}
