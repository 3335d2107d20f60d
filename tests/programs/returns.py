"""Functions whose results a step out, or a step over the line that calls them, shows."""


def total(xs):
    s = 0
    for x in xs:
        s += x
    return s * 2  # marker: return


def half(n):
    return n // 2


result = total([1, 2, 3])  # marker: call
print(result)  # marker: print
again = half(result)  # marker: half
print(again)
