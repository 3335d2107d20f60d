/* A recursive descent over a linked list that walks off its end: the crash comes 500 calls deep. */
#include <stdio.h>
#include <stdlib.h>

struct node {
    int value;
    struct node *next;
};

static long sum_from(const struct node *n, int depth) {
    if (depth == 500)
        return n->next->value; /* marker: crash */
    return n->value + sum_from(n->next, depth + 1);
}

int main(void) {
    struct node *head = NULL;
    for (int i = 0; i < 501; i++) {
        struct node *n = malloc(sizeof *n);
        n->value = i;
        n->next = head;
        head = n;
    }
    printf("sum %ld\n", sum_from(head, 0));
    return 0;
}
