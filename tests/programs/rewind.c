/* A value corrupted two calls before the crash, and a loop whose earlier iteration wrote a bad value:
   the programs `step {mode: "back"}` and `continue {reverse: true}` are tested on (tests/e2e/test_reverse.py). */
#include <stdio.h>
#include <string.h>

struct account {
    char owner[16];
    int balance;
    int *history;
};

static int ledger[8];

static void fill(int *slots, int n) {
    for (int i = 0; i < n; i++) {
        slots[i] = i * 10;  /* marker: fill */
        if (i == 3)
            slots[i] = -1;  /* marker: bad write */
    }
}

static void rename_owner(struct account *a, const char *name) {
    strcpy(a->owner, name);  /* marker: rename */
    a->history = 0;  /* marker: corrupt */
}

static void audit(struct account *a) {
    a->balance += 5;  /* marker: audit */
}

static int report(struct account *a) {
    return a->history[0] + a->balance;  /* marker: crash */
}

int main(void) {
    struct account acct = {"ada", 100, ledger};
    int total = 0;  /* marker: start */
    fill(ledger, 6);
    for (int i = 0; i < 6; i++)
        total += ledger[i];  /* marker: sum */
    printf("total=%d\n", total);
    rename_owner(&acct, "bob");
    audit(&acct);
    total = report(&acct);
    printf("report=%d\n", total);
    return 0;
}
