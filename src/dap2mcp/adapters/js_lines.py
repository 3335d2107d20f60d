"""Where a JavaScript or TypeScript file's top level starts running: the line of its first statement that runs,
past what only declares (imports, function declarations, TypeScript's types) and `"use strict"`.

js-debug's own entry stop is a breakpoint at the file's first line, column 0, which V8 moves to the nearest place
it can break at: inside the first function declared there, often far into the run (a `setTimeout` callback, 300 ms
in). A breakpoint on the line this finds stops before the top level's first statement runs. It reads tokens, not a
syntax tree: strings, template literals, comments and regular expressions are passed over so that their brackets
do not count, and a statement ends at a `;`, or at a line's end where the line could end it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

_WORD = re.compile(r"[A-Za-z_$\u0080-\uffff][\w$\u0080-\uffff]*|\d[\w.]*")
_REGEX = re.compile(r"/(?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\\n\[])+/[A-Za-z]*")
_STRING = {"'": re.compile(r"'(?:\\.|[^'\\\n])*'?", re.S), '"': re.compile(r'"(?:\\.|[^"\\\n])*"?', re.S)}
_TEMPLATE_PART = re.compile(r"(?:\\.|[^`\\$]|\$(?!\{))*", re.S)
_BEFORE_REGEX = {"return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw", "yield",
                 "await", "instanceof"}
"""Words after which a `/` starts a regular expression, not a division."""
_ENDS = {")", "]", "}", ">"}
"""Tokens a line can end a statement with (besides words and literals)."""
_GOES_ON = set(".?|&=,<>+-*/%:")
"""First characters of a token that carries the statement on from the line before."""
_DECLARES = {"function", "interface", "declare", "abstract"}


@dataclass(frozen=True)
class Token:
    text: str
    line: int
    literal: bool = False
    """A string, template, number or regular expression: its text is not a word or bracket of the code."""


def first_statement_line(text: str) -> int | None:
    """The line (1-based) of the first top-level statement of `text` that runs; None where every one only declares."""
    tokens = list(tokens_of(text))
    at = 0
    while at < len(tokens):
        token = tokens[at]
        if token.text == ";":
            at += 1
        elif _declaration(tokens, at):
            at = _statement_end(tokens, at)
        else:
            return token.line
    return None


def _declaration(tokens: list[Token], at: int) -> bool:
    """Whether the statement starting at `at` only declares: nothing of it runs where it stands."""
    first, second, third = (_text(tokens, at + n) for n in range(3))
    if tokens[at].literal and first[:1] in "'\"":  # a directive ("use strict")
        return True
    if first == "import":
        return second not in ("(", ".")  # `import(...)` and `import.meta` are expressions
    if first == "export":
        if second in ("{", "*", "type", "interface", "declare", "function"):
            return True
        if second == "default" and third == "function":
            return True
        return second == "async" and third == "function" or second == "default" and third == "async"
    if first in _DECLARES and not (first == "abstract" and second == "class"):
        return True
    if first == "async" and second == "function":
        return True
    if first == "const" and second == "enum":  # erased by TypeScript
        return True
    return first == "type" and bool(_WORD.fullmatch(second)) and not tokens[at + 1].literal


def _statement_end(tokens: list[Token], at: int) -> int:
    """The index of the token after the statement that starts at `at`."""
    depth = 0
    for index in range(at, len(tokens)):
        token, after = tokens[index], tokens[index + 1] if index + 1 < len(tokens) else None
        if not token.literal and token.text in "([{":
            depth += 1
        elif not token.literal and token.text in ")]}":
            depth -= 1
        if depth > 0:
            continue
        if token.text == ";" and not token.literal:
            return index + 1
        if after is None or after.line > token.line and _can_end(token) and not _goes_on(after):
            return index + 1
    return len(tokens)


def _can_end(token: Token) -> bool:
    return token.literal or token.text in _ENDS or bool(_WORD.fullmatch(token.text))


def _goes_on(token: Token) -> bool:
    return not token.literal and token.text[:1] in _GOES_ON


def _text(tokens: list[Token], at: int) -> str:
    return tokens[at].text if at < len(tokens) else ""


def tokens_of(text: str) -> Iterator[Token]:
    """`text`'s tokens, with their lines: words, literals, and each other character but space and comments."""
    at, line, end = 0, 1, len(text)
    braces: list[str] = []
    """What each open `{` is: a block or object (`{`), or a template's `${` (`$`), whose `}` goes back into it."""
    previous: Token | None = None
    if text.startswith("#!"):
        at = text.find("\n") if "\n" in text else end
    while at < end:
        char = text[at]
        if char == "\n":
            line += 1
            at += 1
            continue
        if char.isspace():
            at += 1
            continue
        if text.startswith("//", at):
            at = text.find("\n", at) if "\n" in text[at:] else end
            continue
        if text.startswith("/*", at):
            close = text.find("*/", at + 2)
            close = end if close < 0 else close + 2
            line += text.count("\n", at, close)
            at = close
            continue
        start_line = line
        if char == "`" or char == "}" and braces and braces[-1] == "$":
            if char == "}":
                braces.pop()
            stop = _TEMPLATE_PART.match(text, at + 1).end()
            piece = text[at:stop + 2] if text.startswith("${", stop) else text[at:stop + 1]
            if text.startswith("${", stop):
                braces.append("$")
            token = Token(piece, start_line, literal=True)
            at += len(piece)
        elif char in _STRING:
            piece = _STRING[char].match(text, at).group()
            token = Token(piece, start_line, literal=True)
            at += len(piece)
        elif char == "/" and _regex_may_follow(previous) and (found := _REGEX.match(text, at)):
            token = Token(found.group(), start_line, literal=True)
            at = found.end()
        elif word := _WORD.match(text, at):
            token = Token(word.group(), start_line, literal=word.group()[0].isdigit())
            at = word.end()
        else:
            if char == "{":
                braces.append("{")
            elif char == "}" and braces:
                braces.pop()
            token = Token(char, start_line)
            at += 1
        line += token.text.count("\n")
        previous = token
        yield token


def _regex_may_follow(previous: Token | None) -> bool:
    """Whether a `/` after `previous` starts a regular expression (else it divides)."""
    if previous is None:
        return True
    if previous.literal:
        return False
    if _WORD.fullmatch(previous.text):
        return previous.text in _BEFORE_REGEX
    return previous.text not in (")", "]", "}")
