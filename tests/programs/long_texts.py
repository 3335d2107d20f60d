"""Holds 100 strings of about 900 characters each in one list: a diff of a snapshot that read them with one
that did not lists 100 entries of about 1,000 characters each, more than a diff's 50,000-character budget."""


def main() -> None:
    texts = [f"text {i:03} " + "x" * 900 for i in range(100)]
    print(len(texts))  # marker: held


main()
