/* NULL pointers to structs, alone and as a field. */
#include <stdio.h>

struct node {
    int value;
    struct node *next;
    char label[8];
};

int main(void) {
    struct node *none = NULL;
    struct node one = {1, NULL, "x"};
    printf("%d %p\n", one.value, (void *)none); /* marker: print */
    return 0;
}
