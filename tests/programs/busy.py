"""Spins without sleeping or printing: a hung program."""


def main():
    n = 0
    while True:
        n += 1  # marker: spin


main()
