/* Lines that begin with digits: cdt-gdb-adapter's MI parser took them for command tokens. */
#include <stdio.h>

int main(void) {
    printf("42\n");
    printf("7 apples\n");
    fprintf(stderr, "123abc\n");
    return 0;
}
