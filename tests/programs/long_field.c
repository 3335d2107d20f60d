/* A struct whose first field is long text: shown whole, it left no room for the fields after it. */
#include <stdio.h>
#include <string.h>

struct item {
    char name[300];
    const char *label;
    int count;
    double price;
};

int main(void) {
    struct item items[1];
    memset(items[0].name, 0, sizeof items[0].name);
    for (int i = 0; i < 250; i++)
        items[0].name[i] = "abcdefghij"[i % 10];
    items[0].label = "tea";
    items[0].count = 3;
    items[0].price = 2.5;
    struct item *it = &items[0];
    const char *unreadable = (const char *)0x10;
    printf("%d %p\n", it->count, (const void *)unreadable); /* marker: use */
    return 0;
}
