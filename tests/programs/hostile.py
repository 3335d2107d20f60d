"""State that fights back: long values, and names the snapshot helper would call through."""


def shadowing():
    exec = print  # noqa: A001 - a program may rebind a builtin
    locals = {"fake": 1}  # noqa: A001
    data = {"value": [1, [2]]}
    return exec, locals, data  # marker: shadow


def long_values():
    texts = {f"t{i}": "x" * 40_000 for i in range(100)}
    return texts  # marker: long


if __name__ == "__main__":
    shadowing()
    long_values()
