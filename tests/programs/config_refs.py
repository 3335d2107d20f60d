"""Resolves ${section.key} references in a configuration, through re.sub's callbacks; two entries refer to
each other, so resolving recurses until Python's stack runs out (a RecursionError deep in re's calls)."""

import re

CONFIG = {"paths": {"root": "/srv", "data": "${paths.root}/data", "cache": "${paths.tmp}/cache",
                    "tmp": "${paths.cache}/tmp"}}
REF = re.compile(r"\$\{([^}]+)\}")


def lookup(config, dotted):
    node = config
    for part in dotted.split("."):
        node = node[part]
    return str(node)


def resolve(config, value):
    return REF.sub(lambda m: resolve(config, lookup(config, m.group(1))), value)  # marker: resolve


def main():
    resolved = {key: resolve(CONFIG, value) for key, value in CONFIG["paths"].items()}
    print(resolved)


main()
