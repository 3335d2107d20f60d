/* A tight loop under a tracepoint that may say only three things: the rest of its hits come while it is taken out. */
#include <stdio.h>

int main(void) {
    long total = 0;
    for (int i = 0; i < 200000; i++) {
        total += i; /* marker: traced */
    }
    printf("%ld\n", total);
    return 0;
}
