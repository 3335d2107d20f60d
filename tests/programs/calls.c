/* Calls two levels deep in a loop: stepping in and out moves between frames at every turn. */
#include <stdio.h>

static int leaf(int x) {
    int y = x * 2; /* marker: leaf */
    return y;
}

static int middle(int a) {
    int b = leaf(a);
    int c = leaf(b) + 1;
    return b + c;
}

static int top(void) {
    int total = 0; /* marker: top */
    for (int k = 0; k < 100; k++) {
        total += middle(k); /* marker: call */
    }
    return total;
}

int main(void) {
    printf("%d\n", top());
    return 0;
}
