/* Prints what gdb prints when a program ends, its own pid included, then goes on: the text is the program's. */
#include <stdio.h>
#include <unistd.h>

int main(void) {
    printf("[Inferior 1 (process %d) exited with code 07]\n", (int)getpid());
    printf("Program terminated with signal SIGKILL, Killed.\n");
    fflush(stdout);
    int total = 0;
    for (int i = 0; i < 3; i++) {
        total += i; /* marker: loop */
    }
    printf("total %d\n", total);
    return 3;
}
