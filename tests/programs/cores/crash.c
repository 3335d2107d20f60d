/* Scales a point, then reads through a NULL pointer: a SIGSEGV, whose core the tests read. */
#include <stdio.h>

struct point {
    int x, y;
};

static int scale(struct point *p, int by) {
    int *missing = NULL;
    p->x *= by;
    return p->x + *missing; /* marker: crash */
}

int main(int argc, char **argv) {
    struct point p = {3, 4};
    printf("scaling\n");
    return scale(&p, argc + 1);
}
