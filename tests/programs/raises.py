"""Exceptions to stop on: one raised and caught, one that ends the program."""


def parse(text):
    return int(text)  # marker: parse


def main():
    try:  # noqa: SIM105 - a plain try, as the programs being debugged have
        parse("seven")
    except ValueError:
        pass
    try:  # noqa: SIM105 - a plain try, as the programs being debugged have
        {}["missing"]
    except KeyError:
        pass
    settings = {"mode": "fast"}
    return settings["colour"]  # marker: uncaught


if __name__ == "__main__":
    main()
