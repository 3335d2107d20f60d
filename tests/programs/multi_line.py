"""A call spread over several lines: Python comes back to its first line to make the call."""


def compute(a, b):
    return a + b


def main():
    total = compute(  # marker: call
        len("abc"),
        2,
    )
    return total  # marker: after


print(main(), main())
