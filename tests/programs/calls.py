"""Calls two levels deep in a loop: stepping in and out moves between frames at every turn."""


def leaf(x):
    y = x * 2  # marker: leaf
    return y


def middle(a):
    b = leaf(a)
    c = leaf(b) + 1
    return b + c


def top():
    total = 0  # marker: top
    for k in range(100):
        total += middle(k)
    return total


print(top())
