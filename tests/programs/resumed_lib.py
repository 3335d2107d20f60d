"""A generator in a module of its own, for a function breakpoint by its dotted name."""


def pages(count):
    number = 0  # marker: pages first
    while number < count:
        number += 1
        yield number
