/* A file's static tables: the same at every stop. */
#include <stdio.h>

static const int table[4] = {1, 2, 3, 4};
static const char *names[3] = {"a", "b", "c"};
int counter = 0;

int main(void) {
    counter += table[2]; /* marker: use */
    printf("%d %s\n", counter, names[1]);
    return 0;
}
