/* Reads its stdin to the end and prints what it got and its arguments: under a debugger it must see end of file. */
#include <stdio.h>

int main(int argc, char **argv) {
    char line[200];
    int lines = 0;
    while (fgets(line, sizeof line, stdin) != NULL) {
        lines++;
    }
    printf("read %d lines; args:", lines);
    for (int i = 1; i < argc; i++) {
        printf(" [%s]", argv[i]);
    }
    printf("\n");
    return lines;
}
