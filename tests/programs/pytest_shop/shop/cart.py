"""A shopping cart with a discount bug (test_cart's first test fails) and a lookup that fails deep down."""

PRICES = {"apple": 300, "pear": 250}


def price_of(item: str) -> int:
    return PRICES[item]  # marker: lookup


def line_total(item: str, quantity: int) -> int:
    return price_of(item) * quantity


def total(items: dict[str, int], discount_percent: int = 0) -> int:
    gross = sum(line_total(item, quantity) for item, quantity in items.items())
    return gross - gross * discount_percent // 1000  # the bug: per mille, not per cent
