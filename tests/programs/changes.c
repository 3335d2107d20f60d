/* A struct's field and an array's element written in place: what changed is the field, the element. */
#include <stdio.h>

struct point {
    int x;
    int y;
};

int main(void) {
    struct point p = {1, 2};
    int arr[3] = {10, 11, 12};
    p.x = 10; /* marker: field */
    arr[1] = 20; /* marker: element */
    printf("%d %d %d\n", p.x, p.y, arr[1]); /* marker: print */
    return 0;
}
