/* A service that cleans up when asked to end: a SIGTERM handler ends its loop, an exit handler prints. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile sig_atomic_t asked = 0;

static void on_term(int sig) { asked = sig; }

static void bye(void) {
    printf("exit handler ran\n");
    fflush(stdout);
}

int main(void) {
    atexit(bye);
    signal(SIGTERM, on_term);
    int beats = 0;
    while (!asked) {
        beats++; // marker: beat
        usleep(50000);
    }
    printf("asked to end after %d beats\n", beats);
    return 4;
}
