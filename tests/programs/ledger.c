/* An account ledger: a struct holding an array, a nested struct and a text buffer, as C programs keep them. */
#include <stdio.h>
#include <string.h>

struct date { int year; int month; };

struct account {
    const char *owner;
    int balances[16];
    struct date opened;
    char memo[64];
};

struct point { int x; int y; };

int issued = 0;

struct date issue(void) {  /* a call with an effect, for an agent to evaluate */
    issued++;
    struct date next = {2024, issued};
    return next;
}

static int total(const struct account *acct) {
    int sum = 0;
    for (int i = 0; i < 16; i++) sum += acct->balances[i]; // marker: adding
    return sum;
}

static int perimeter(void) {
    struct point a = {0, 0}, b = {4, 0}, c = {4, 3}, d = {2, 5}, e = {0, 3};
    struct point f = {1, 1}, g = {2, 2}, h = {3, 3}, i = {4, 4}, j = {5, 5};
    int sum = a.x + b.x + c.x + d.x + e.x + f.x + g.x + h.x + i.x + j.x; // marker: points
    return sum;
}

int main(void) {
    struct account account = {"Ada", {10, 20, 30}, {2021, 7}, ""};
    strcpy(account.memo, "rent for july");
    int history[500];
    for (int k = 0; k < 500; k++) history[k] = 1000 + k;
    int sum = total(&account); // marker: summed
    printf("%d %d %d\n", sum, history[499], perimeter());
    return 0;
}
