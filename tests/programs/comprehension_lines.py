"""Lines that run in two frames: a comprehension's own at each item, and the function's around it."""


def totals(items):
    limit = 4
    doubled = sum(x * 2 for x in items if x > 1)  # marker: genexpr line
    squares = [y * y for y in items]  # marker: listcomp line
    tripled = list(
        z * 3  # marker: inner line: only the generator's frame runs it
        for z in items
    )
    return limit, doubled, squares, tripled


def count(n):
    seen = 0
    for i in range(n):
        seen += i  # marker: counted line
    return seen


print(totals([1, 2, 3, 4, 5, 6]))
print(count(20))
