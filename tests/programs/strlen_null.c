/* Crashes inside the C library: strlen of a null pointer, one frame below the program's own code. */
#include <stdio.h>
#include <string.h>

static size_t measure(const char *s) {
    return strlen(s); /* marker: strlen */
}

int main(void) {
    const char *name = NULL;
    printf("%zu\n", measure(name));
    return 0;
}
