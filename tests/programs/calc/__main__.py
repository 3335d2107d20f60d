import sys


def double(x):
    return x * 2  # marker: double


print("calc", double(int(sys.argv[1]) if len(sys.argv) > 1 else 21))
