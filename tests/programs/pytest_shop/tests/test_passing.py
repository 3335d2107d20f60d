from shop.cart import line_total, total


def test_line_total():
    assert line_total("pear", 2) == 500


def test_empty_cart_costs_nothing():
    assert total({}) == 0
