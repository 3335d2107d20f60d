/* A struct and an array, for setting a field and an element by path. */
#include <stdio.h>

struct stats { double sum; int n; };

int main(void) {
    struct stats s = { 2.5, 3 };
    int xs[3] = { 1, 2, 3 };
    printf("sum=%g n=%d xs1=%d\n", s.sum, s.n, xs[1]); /* marker: print */
    return 0;
}
