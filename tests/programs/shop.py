"""A checkout whose state changes in known ways between markers, for snapshot tests."""

import sys


class Customer:
    def __init__(self, name, city):
        self.name = name
        self.city = city


class Order:
    def __init__(self, customer):
        self.customer = customer
        self.items = ["tea", "jam", "bread", "milk"]
        self.parent = self  # a cycle in the object graph


def apply_discount(total, percent):
    reduced = total * (100 - percent) / 100
    return round(reduced, 2)  # marker: inside


def checkout(city):
    order = Order(Customer("Ada", city))
    prices = {"tea": 3.5, "jam": 4.0}
    count = 0
    total = 0.0  # marker: start
    order.customer.city = "Krakow"
    order.items.remove("jam")
    prices["tea"] = 4.25
    del prices["jam"]
    count = "two"
    note = "changed"
    total = apply_discount(10.0, 10)  # marker: changed
    return order, prices, count, note, total  # marker: end


if __name__ == "__main__":
    checkout(sys.argv[1] if len(sys.argv) > 1 else "Warsaw")
