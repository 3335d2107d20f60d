/* An enum variable, set by an enumerator's name. */
#include <stdio.h>

enum color { RED, GREEN, BLUE };

int main(void) {
    enum color c = RED;
    printf("%d\n", (int)c); /* marker: print */
    return 0;
}
