"""Reads its input from stdin."""

name = input("name? ")  # marker: input
print("hello", name)
