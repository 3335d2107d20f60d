"""A module-level count that a function reads: set from inside the function, the global must change."""

COUNT = 1


def bump():
    seen = COUNT  # marker: bump
    return seen + 1


print("bumped", bump(), "count", COUNT)
