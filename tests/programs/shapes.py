"""Many shapes of state in one frame, to check that every way of capturing sees the same."""

from collections import OrderedDict, defaultdict, namedtuple

Point = namedtuple("Point", "x y")


class Slotted:
    __slots__ = ("a", "b")

    def __init__(self):
        self.a = 1
        self.b = [1, 2]


class Node:
    kind = "node"  # a class variable

    def __init__(self, value):
        self.value = value
        self._protected = "p"
        self.__private = "q"
        self.next = None

    @property
    def doubled(self):
        return self.value * 2


def main():
    chain = Node(1)
    chain.next = Node(2)
    chain.next.next = chain  # a cycle two levels down
    shared = [1, 2]
    pair = {"left": shared, "right": shared}
    keys = {"a": 1, 2: "two", (1, 2): None, None: 0.5}
    ordered = OrderedDict([("z", 1), ("a", 2)])
    counts = defaultdict(int, {"x": 3})
    many = {f"k{i}": i for i in range(600)}
    long_list = list(range(1200))
    text = "naïve ☃ " * 3
    blob = b"\x00\x01bytes"
    nested = [[1, [2, [3, [4]]]], (5, 6), {7, 8}, frozenset({9})]
    point = Point(1, 2)
    slotted = Slotted()
    failure = ValueError("bad", 42)
    nothing = None
    return locals()  # marker: here


if __name__ == "__main__":
    main()
