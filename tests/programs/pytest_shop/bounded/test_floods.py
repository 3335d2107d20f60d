"""A suite that prints thousands of lines (one of them failing): the run's output is bounded like any other."""

from shop.cart import total

LINES = 3000


def test_prints_a_line_per_order_then_fails():
    for order in range(LINES):
        print(f"order {order:05d} costs {total({'apple': 1})}")
    assert total({"apple": 1, "pear": 1}) == 0  # marker: flood assert
