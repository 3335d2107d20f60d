/* A system call gdb's recording cannot record, so cannot undo (memfd_create, 319 on x86-64): the recording
   stops at it. */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void) {
    int step = 1; /* marker: start */
    step += 1;
    long fd = syscall(SYS_memfd_create, "dap2mcp", 0); /* marker: syscall */
    step += fd > 0;
    printf("step %d\n", step);
    return 0;
}
