/* Nine passes over seven lines, one for each form of hit condition (tests/e2e/test_limits.py). */
#include <stdio.h>

int main(void) {
    int passes = 0;
    int i; /* not in the loop's own block, where cdt-gdb-adapter does not list it */
    for (i = 1; i < 10; i++) {
        passes += i; /* marker: plain */
        passes += i; /* marker: equal */
        passes += i; /* marker: at-least */
        passes += i; /* marker: more-than */
        passes += i; /* marker: less-than */
        passes += i; /* marker: at-most */
        passes += i; /* marker: every */
    }
    printf("passes %d\n", passes);
    return 0;
}
