/* An array in the caller's frame: cdt-gdb-adapter cannot list the variables of such an outer frame. */
#include <stdio.h>

int add(int a, int b) {
    int s = a + b; /* marker: add */
    return s;
}

int main(void) {
    int arr[3] = {1, 2, 3};
    int total = add(arr[0], arr[2]);
    printf("%d\n", total);
    return 0;
}
