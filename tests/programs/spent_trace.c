/* A tight loop through a tracepoint's line, many more times than the tracepoint may log
   (tests/e2e/test_tracepoints_spent.py): once it has said enough, the program must run to its end.
   The number of passes is the first argument, 3000 without one. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    long passes = argc > 1 ? atol(argv[1]) : 3000;
    long total = 0;
    long i; /* not in the loop's own block, where cdt-gdb-adapter does not list it */
    for (i = 0; i < passes; i++) {
        total += i; /* marker: traced */
    }
    printf("total %ld\n", total); /* marker: end */
    return 0;
}
