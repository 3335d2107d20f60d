"""Spins without sleeping or printing, once it has said it started: a hung program."""


def main():
    print("spinning", flush=True)
    n = 0
    while True:
        n += 1  # marker: spin


main()
