#!/usr/bin/env python3
"""Fails when a Swift Testing `@Suite` or `@Test` has no time limit, or one its suite overrides.

A test is bounded when its own attribute has a `.timeLimit(...)` trait, or when a type that encloses
it (a `@Suite` with the trait, directly or through an extension of that type) has one: Swift Testing
applies a suite's time limit to every test and suite inside it. A hang then fails the test instead of
the whole run. Swift Testing applies the shortest limit that reaches a test, so a test's limit longer
than its suite's is reported too: raise the suite's.

Usage: check-time-limits.py [folder ...]   (by default the test folders of the repository)
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_FOLDERS = ["Packages/*/Tests", "Tests", "Tools/*/Tests"]

ATTRIBUTE = re.compile(r"@(Suite|Test)\b")
TYPE_DECLARATION = re.compile(r"\b(struct|class|enum|actor|extension)\s+([A-Za-z_][A-Za-z0-9_.]*)")
LIMIT = re.compile(r"\.timeLimit\(\s*\.minutes\(\s*(\d+)\s*\)\s*\)")
DECLARATION = re.compile(r"\b(struct|class|enum|actor|extension|func)\b")


def blank_comments_and_strings(text):
    """`text` with comments and string literals blanked out (newlines kept), so that braces,
    parentheses and names are those of the code."""
    out = list(text)
    i, n = 0, len(text)

    def blank(start, end):
        for k in range(start, min(end, n)):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            blank(i, end)
            i = end
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j)
            i = j
        elif text[i] == '"' or (text[i] == "#" and re.match(r'#+"', text[i:])):
            hashes = len(re.match(r"#*", text[i:]).group(0))
            j = i + hashes
            multiline = text.startswith('"""', j)
            quote = '"""' if multiline else '"'
            j += len(quote)
            closing = quote + "#" * hashes
            escape = "\\" + "#" * hashes
            while j < n and not text.startswith(closing, j):
                if text.startswith(escape, j):
                    j += len(escape) + 1
                elif not multiline and text[j] == "\n":
                    break
                else:
                    j += 1
            j = min(n, j + len(closing))
            blank(i, j)
            i = j
        else:
            i += 1
    return "".join(out)


def matching(code, start, opening, closing):
    """The index just past the bracket that closes the one at `start`."""
    depth = 0
    for k in range(start, len(code)):
        if code[k] == opening:
            depth += 1
        elif code[k] == closing:
            depth -= 1
            if depth == 0:
                return k + 1
    return len(code)


def attribute_end(code, at):
    """The index just past an attribute that starts at `at`, its arguments included."""
    end = ATTRIBUTE.match(code, at).end()
    rest = len(code[end:]) - len(code[end:].lstrip(" \t"))
    if end + rest < len(code) and code[end + rest] == "(":
        return matching(code, end + rest, "(", ")")
    return end


def minutes(attribute):
    """The minutes of an attribute's `.timeLimit(.minutes(n))`, or `None`."""
    found = LIMIT.search(attribute)
    return int(found.group(1)) if found else None


def check(path):
    text = path.read_text(encoding="utf-8")
    code = blank_comments_and_strings(text)

    # Every attribute, with whether it carries a time limit and the declaration it is attached to.
    attributes = []
    for match in ATTRIBUTE.finditer(code):
        end = attribute_end(code, match.start())
        declaration = DECLARATION.search(code, end)
        attributes.append(
            {
                "kind": match.group(1),
                "at": match.start(),
                "limited": ".timeLimit(" in code[match.start() : end],
                "minutes": minutes(code[match.start() : end]),
                "declaration": declaration.start() if declaration else None,
            }
        )

    # Every type body, with the suite attribute right before it, if any.
    types = []
    for match in TYPE_DECLARATION.finditer(code):
        brace = code.find("{", match.end())
        if brace < 0:
            continue
        suite = next(
            (a for a in attributes if a["kind"] == "Suite" and a["limited"] and a["declaration"] == match.start()),
            None,
        )
        types.append(
            {
                "keyword": match.group(1),
                "name": match.group(2).split(".")[-1],
                "body": (brace, matching(code, brace, "{", "}")),
                "limited": suite is not None,
                "minutes": suite["minutes"] if suite else None,
            }
        )
    return text, attributes, types


def main(arguments):
    folders = arguments or DEFAULT_FOLDERS
    files = sorted(
        {
            file
            for pattern in folders
            for folder in (ROOT.glob(pattern) if not pathlib.Path(pattern).is_absolute() else [pathlib.Path(pattern)])
            for file in folder.rglob("*.swift")
            if ".build" not in file.parts
        }
    )
    parsed = {file: check(file) for file in files}
    # A suite's time limit reaches an extension of it in any file of the same test folder.
    limited_names = {t["name"] for _, _, types in parsed.values() for t in types if t["limited"]}

    missing = []
    for file, (text, attributes, types) in parsed.items():
        for attribute in attributes:
            enclosing = [t for t in types if t["body"][0] < attribute["at"] < t["body"][1]]
            line = text.count("\n", 0, attribute["at"]) + 1
            shown = file.relative_to(ROOT) if file.is_relative_to(ROOT) else file
            # Swift Testing applies the shortest limit: a longer one inside a suite has no effect.
            outer = [t["minutes"] for t in enclosing if t["minutes"] is not None]
            if attribute["minutes"] is not None and outer and attribute["minutes"] > min(outer):
                missing.append(
                    f"{shown}:{line}: @{attribute['kind']}'s limit of {attribute['minutes']} min exceeds "
                    f"its suite's {min(outer)} min, which wins"
                )
            if attribute["limited"]:
                continue
            if any(t["limited"] or (t["keyword"] == "extension" and t["name"] in limited_names) for t in enclosing):
                continue
            missing.append(f"{shown}:{line}: @{attribute['kind']} has no .timeLimit trait")

    for entry in missing:
        print(entry)
    tests = sum(len(attributes) for _, attributes, _ in parsed.values())
    if missing:
        print(f"{len(missing)} of {tests} @Suite/@Test attributes have no time limit that applies.")
        return 1
    print(f"Every @Suite/@Test ({tests}) in {len(files)} files has a time limit, directly or from a suite.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
