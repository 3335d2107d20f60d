"""A module with thousands of globals, so reading a stop takes long enough to race with."""

for _i in range(30000):
    globals()[f"g{_i}"] = [_i]


def work(items):
    total = sum(len(v) for v in items.values())
    return total  # marker: work


if __name__ == "__main__":
    for _ in range(3):
        work({f"k{i}": [i] * 3 for i in range(50)})
