/* A debit, to pause after and save a core of (gdb's gcore), then read that core. */
#include <stdio.h>

struct account {
    int id;
    long balance;
};

int main(void) {
    struct account acct = {7, 1200};
    printf("account %d\n", acct.id);
    acct.balance -= 300;
    printf("balance %ld\n", acct.balance); /* marker: debited */
    return 0;
}
