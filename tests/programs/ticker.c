/* Counts forever, one tick per 50 ms: a process to attach to. */
#include <stdio.h>
#include <unistd.h>

static long tick(long n) {
    return n + 1; // marker: tick
}

int main(void) {
    long count = 0;
    printf("ticking\n");
    fflush(stdout);
    for (;;) {
        count = tick(count);
        usleep(50000);
    }
}
