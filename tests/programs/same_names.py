"""Calls that share a function's name: a recursion, and two classes' methods of one name."""


def count(n):
    if n == 0:
        return 0
    return count(n - 1) + 1  # marker: recurse


class Foo:
    def setup(self):
        a = 1  # marker: foo
        return a


class Bar:
    def setup(self):
        b, c = 2, 3  # marker: bar
        return b + c


count(3)
Foo().setup()
Bar().setup()
