/* Prints what gdb prints when a program ends, its own pid included, then goes on: the text is the program's.
   With an argument it buffers its output fully and does not flush: the text then reaches gdb's output only at the
   program's real end (dap2mcp makes a gdb program's stdout line-buffered; the program's own setvbuf wins). */
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv) {
    (void)argv;
    if (argc >= 2) {
        setvbuf(stdout, NULL, _IOFBF, BUFSIZ);
    }
    printf("[Inferior 1 (process %d) exited with code 07]\n", (int)getpid());
    printf("Program terminated with signal SIGKILL, Killed.\n");
    if (argc < 2) {
        fflush(stdout);
    }
    int total = 0;
    for (int i = 0; i < 3; i++) {
        total += i; /* marker: loop */
    }
    printf("total %d\n", total);
    return 3;
}
