"""Reads 50,000 rows of CSV with the standard library's csv module and holds them all in one frame."""

import csv
import io


def load(count: int) -> list[dict[str, str]]:
    text = "id,name,city,amount\n" + "".join(f"{i},customer {i},city {i % 97},{i * 7 % 1000}.50\n"
                                              for i in range(count))
    rows = list(csv.DictReader(io.StringIO(text)))
    total = sum(float(row["amount"]) for row in rows)
    return rows if total else []  # marker: loaded


def main() -> None:
    rows = load(50_000)
    rows[0]["city"] = "changed"  # marker: changed
    print(len(rows))


main()
