/* A ledger whose total is written in two places, one of them wrong: for watches (data breakpoints). */
#include <stdio.h>

struct book { int entries[4]; int total; };

struct book ledger;

static void post(struct book *b, int slot, int amount) {
    b->entries[slot] = amount; // marker: entry
    b->total += amount; // marker: add
}

static void refund(struct book *b, int amount) {
    b->total = b->total - amount * 2; // marker: wrong
}

static int scratch(void) {
    int local = 1; // marker: local
    local = local * 7; // marker: local-write
    return local;
}

int main(void) {
    post(&ledger, 0, 10); // marker: start
    post(&ledger, 1, 20);
    int kept = scratch();
    refund(&ledger, 5);
    post(&ledger, 2, kept); // marker: after
    printf("%d\n", ledger.total);
    return 0;
}
