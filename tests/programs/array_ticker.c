/* Changes an array in main between sleeps: paused under gdb, cdt-gdb-adapter cannot list main's variables. */
#include <unistd.h>

int main(void) {
    int arr[2] = {0, 0};
    for (;;) {
        arr[0]++;
        usleep(20000); /* marker: sleep */
    }
}
