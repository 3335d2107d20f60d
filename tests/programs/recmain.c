/* A main that calls itself: the stack has four frames named main above the C runtime's. */
#include <stdio.h>

static int helper(int n) {
    return n * 2; /* marker: helper */
}

int main(int argc, char **argv) {
    if (argc < 4)
        return main(argc + 1, argv);
    printf("%d\n", helper(argc));
    return 0;
}
