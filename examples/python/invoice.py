"""Computes an invoice total. It has a bug: the total comes out too low.

Three items at 10.00, 5.00 x 2 and 2.50 x 4 with a 10% discount should cost 27.00,
but the program prints something else. Debug it with dap2mcp to see why.
"""

import sys


def line_total(item):
    amount = item["price"] * item["qty"]  # marker: line_total
    return amount


def apply_discount(total, percent):
    return total - total * percent / 100


def invoice_total(items, discount_percent):
    total = 0.0
    for item in items:
        subtotal = line_total(item)  # marker: loop
        total += subtotal
        total = apply_discount(total, discount_percent)  # the bug: discounts every running total
    return round(total, 2)


def main(argv):
    discount = int(argv[1]) if len(argv) > 1 else 10
    items = [
        {"name": "notebook", "price": 10.00, "qty": 1},
        {"name": "pen", "price": 5.00, "qty": 2},
        {"name": "eraser", "price": 2.50, "qty": 4},
    ]
    total = invoice_total(items, discount)
    print(f"invoice total: {total:.2f}")  # marker: print
    expected = round(sum(i["price"] * i["qty"] for i in items) * (1 - discount / 100), 2)
    print(f"expected:      {expected:.2f}", file=sys.stderr)
    return 0 if total == expected else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
