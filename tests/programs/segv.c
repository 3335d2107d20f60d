/* Writes through a null pointer: a crash to debug. */
#include <stdio.h>

static void store(int *where, int value) {
    *where = value; // marker: crash
}

int main(void) {
    printf("about to crash\n");
    fflush(stdout);
    store(NULL, 42);
    return 0;
}
