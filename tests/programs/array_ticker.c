/* Changes an array in main between sleeps: paused under gdb, main's variables cannot be listed. */
#include <unistd.h>

int main(void) {
    int arr[2] = {0, 0};
    for (;;) {
        arr[0]++;
        usleep(20000); /* marker: sleep */
    }
}
