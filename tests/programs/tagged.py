"""Sets, whose members come in another order in another run (string hashing is seeded per process)."""

tags = {"red", "green", "blue", "amber"}
sizes = frozenset({1, 2, 3})
print(sorted(tags), sorted(sizes))  # marker: print
