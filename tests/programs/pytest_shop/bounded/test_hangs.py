"""A test that hangs: it waits for a delivery that never comes, polling as real code waits for a condition."""

import threading

from shop.cart import total


def test_waits_for_a_delivery_that_never_comes():
    order = {"apple": 3}
    delivered = threading.Event()  # nobody sets it
    waited = 0
    while not delivered.wait(0.01):  # marker: hang loop
        waited += 1
    assert total(order) == 900
