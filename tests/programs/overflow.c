/* Recurses without end: a stack overflow. */
#include <stdio.h>

static long depth(long n) {
    volatile char pad[256];
    pad[0] = (char)n;
    return depth(n + 1) + pad[0]; // marker: recurse
}

int main(void) {
    printf("%ld\n", depth(0));
    return 0;
}
