/* Runs code before main, from a constructor. */
#include <stdio.h>

static int configured = 0;

__attribute__((constructor)) static void setup(void) {
    configured = 7; // marker: setup
}

int main(void) {
    printf("configured %d\n", configured); // marker: main
    return 0;
}
