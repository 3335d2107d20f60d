"""Values that refuse to be changed: a frozen dataclass's field, a tuple's item."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Point:
    x: int
    y: int


point = Point(1, 2)
pair = (1, 2)
print(point, pair)  # marker: print
