"""Shapes; one of them tells `inspect` it has no signature of its own by raising AttributeError, which
`inspect.signature` catches (library code catching the project's exception while a test runs)."""

import inspect


class Scaled:
    def __init__(self, factor):
        self.factor = factor

    @property
    def __signature__(self):
        raise AttributeError("no signature of its own: read __call__'s")

    def __call__(self, width, height):
        return width * height * self.factor


def described(shape):
    return f"{type(shape).__name__}{inspect.signature(shape)}"


def area(width, height):
    return width * height + 1  # the bug (marker: bug)


def checked(width):
    if width < 0:
        raise ValueError(f"negative width {width}")  # marker: raise
    return width


def widths(values):
    for value in values:
        yield checked(value)
