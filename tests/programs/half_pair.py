"""A value whose repr holds half a surrogate pair: debugpy sends it as JSON's `\\ud800`, which decodes to a string no
UTF-8 encoder takes."""


class Half:
    def __repr__(self):
        return "half \ud800 of a pair"


def main():
    half = Half()
    print("held", type(half).__name__, flush=True)  # marker: held


main()
