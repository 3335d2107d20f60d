/* Computes an invoice total in cents. It has a bug: the total comes out too low.
 *
 * Three items at 10.00, 5.00 x 2 and 2.50 x 4 with a 10% discount should cost 27.00,
 * but the program prints something else. Debug it with dap2mcp to see why.
 */
#include <stdio.h>
#include <stdlib.h>

struct item {
    const char *name;
    long price_cents;
    int qty;
};

long line_total(const struct item *item) {
    long amount = item->price_cents * item->qty; // marker: line_total
    return amount;
}

long apply_discount(long total, int percent) {
    return total - total * percent / 100;
}

long invoice_total(const struct item *items, int count, int discount_percent) {
    long total = 0;
    for (int i = 0; i < count; i++) {
        long subtotal = line_total(&items[i]); // marker: loop
        total += subtotal;
        total = apply_discount(total, discount_percent); // the bug: discounts every running total
    }
    return total;
}

int main(int argc, char **argv) {
    int discount = argc > 1 ? atoi(argv[1]) : 10;
    struct item items[] = {{"notebook", 1000, 1}, {"pen", 500, 2}, {"eraser", 250, 4}};
    long total = invoice_total(items, 3, discount);
    printf("invoice total: %ld.%02ld\n", total / 100, total % 100); // marker: print
    long expected = (1000 + 1000 + 1000) * (100 - discount) / 100;
    fprintf(stderr, "expected:      %ld.%02ld\n", expected / 100, expected % 100);
    return total == expected ? 0 : 1;
}
