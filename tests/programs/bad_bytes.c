/* Writes a byte that is not UTF-8 to its stdout, then stops: every answer must still be valid. */
#include <stdio.h>

int main(void) {
    fputs("before\n", stdout);
    fwrite("bad \xff byte\n", 1, 11, stdout);
    fflush(stdout);
    int written = 1; /* marker: written */
    printf("after %d\n", written);
    return 0;
}
