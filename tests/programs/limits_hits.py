"""Nine passes over seven lines, one for each form of hit condition (tests/e2e/test_limits.py)."""

passes = []
for i in range(1, 10):
    passes.append(i)  # marker: plain
    passes.append(i)  # marker: equal
    passes.append(i)  # marker: at-least
    passes.append(i)  # marker: more-than
    passes.append(i)  # marker: less-than
    passes.append(i)  # marker: at-most
    passes.append(i)  # marker: every
print("passes", len(passes))
