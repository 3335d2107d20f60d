/* Debuggee for bench/languages.py: a long loop, so `step over` can repeat hundreds of times. */
#include <cstdio>

static long work(long n) {
    long total = 0; // the benchmark's breakpoint
    long count = 0;
    long last = 0;
    for (long i = 0; i < n; i++) {
        total += i;
        count += 1;
        last = i * 2;
    }
    return total + count + last;
}

int main(void) {
    printf("%ld\n", work(1000000));
    return 0;
}
