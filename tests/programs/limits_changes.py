"""Module-level variables (a module's frame lists them as its locals), 25 changed at once, three ways:
more than `changes` lists of each (tests/e2e/test_limits.py)."""

names = [f"v{n:02d}" for n in range(25)]
for n, name in enumerate(names):
    globals()[name] = n
n = name = None
print("set")  # marker: set
for n, name in enumerate(names):
    globals()[name] = n + 100
n = name = None
print("modified")  # marker: modified
for n, name in enumerate(names):
    del globals()[name]
    globals()["w" + name[1:]] = n
n = name = None
print("replaced")  # marker: replaced
