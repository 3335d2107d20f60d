/* A sensor loop shaped like real code: its state behind a pointer, a global round counter, a sleep
 * between rounds, a string measured with the C library's strlen. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct sensor {
    const char *name;
    long ticks;
    double level;
};

long rounds = 0;

static void update(struct sensor *s) {
    s->ticks += 1; // marker: update
    s->level = s->level * 0.5 + 1.0;
    rounds++;
}

int main(int argc, char **argv) {
    struct sensor *s = calloc(1, sizeof *s);
    s->name = argc > 1 ? argv[1] : "probe";
    size_t width = strlen(s->name); // marker: strlen
    printf("watching %s (%zu)\n", s->name, width);
    fflush(stdout);
    while (rounds < 100000) {
        update(s);
        if (s->ticks > 1000000) // marker: check
            printf("ticks jumped: %ld\n", s->ticks);
        usleep(20000); // marker: sleep
    }
    free(s);
    return 0;
}
