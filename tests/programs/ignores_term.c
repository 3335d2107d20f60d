/* A program that ignores SIGTERM and then aborts on its own: what ends it is not the signal it was sent. */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

int main(void) {
    signal(SIGTERM, SIG_IGN);
    int waited = 0; // marker: ignoring
    usleep(300000);
    waited++;
    abort();
}
