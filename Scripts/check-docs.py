#!/usr/bin/env python3
"""Fails when a Markdown document of the repository points at a file or a Swift symbol that does not exist.

The documents: README.md, CONTRIBUTING.md, Docs/*.md, every other README.md, and the DocC articles
(`*.docc/*.md`). Three kinds of pointer are checked, outside fenced code blocks:

- a relative link, `[text](path)` or `[text](path#anchor)`: the path must exist, relative to the
  document; an anchor into a Markdown file must be one of its headings (GitHub's slugs);
- a file path in backticks: `Packages/ConfigModel/...`, `Scripts/check-docs.py`, a path relative to the
  document, a module-relative path (`ConfigModel/Locked.swift`, found under some `*/Sources/ConfigModel/`),
  or a bare file name with a source or document extension (`Exports.swift`, found anywhere in the
  repository). A token counts as a path only when it starts at something that exists (a top-level entry,
  an entry beside the document, a module folder) or names such a file; placeholders (`<Name>`, `…`, `*`)
  and paths git ignores (build products, `.swiftpm/`) are skipped;
- a Swift symbol in backticks, `TypeName.member` (a rule quoted next to the constant that holds it, such as
  `TelemetryAggregates.capacity`): the type must be declared in a Swift file of the repository, and the member
  declared (`let`, `var`, `func`, `case`, `init`...) in a file that declares or extends that type. A type that no
  source declares must be one of EXTERNAL_TYPES (Foundation's, Swift's, a dependency's); add it there when a
  document names a member of such a type on purpose.

Usage: check-docs.py [FILE...]   (no argument: every document of the repository)
"""
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILE_EXTENSIONS = (".swift", ".md", ".py", ".sh", ".txt", ".yml", ".yaml", ".xcprivacy", ".json", ".html", ".js")
SKIPPED_FOLDERS = {".git", ".build", ".swiftpm"}
LINK = re.compile(r"(?<!\!)\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
CODE_SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
SYMBOL = re.compile(r"([A-Z][A-Za-z0-9]*)\.([a-z][A-Za-z0-9]*)(?:\.[a-z][A-Za-z0-9]*)*(?:\(\))?")
TYPE_DECLARATION = re.compile(r"\b(?:class|struct|enum|actor|protocol|typealias|extension)\s+(?:[A-Z]\w*\.)*([A-Z]\w*)")
# Types the documents name members of that no Swift file of the repository declares.
EXTERNAL_TYPES = {"InstrumentationSystem", "JSONSerialization", "OpenFeatureAPI", "Reason", "ServiceContext", "Task",
                  "URLSession"}


def documents():
    found = {"README.md", "CONTRIBUTING.md"}
    found |= {os.path.relpath(path, ROOT) for path in glob.glob(os.path.join(ROOT, "Docs", "*.md"))}
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [name for name in subfolders if name not in SKIPPED_FOLDERS and not name.startswith(".build")]
        relative = os.path.relpath(folder, ROOT)
        for name in files:
            if name == "README.md" or (relative.endswith(".docc") and name.endswith(".md")):
                found.add(os.path.normpath(os.path.join(relative, name)))
    return sorted(found)


def repository_files():
    listed = subprocess.run(["git", "-C", ROOT, "ls-files", "--cached", "--others", "--exclude-standard"],
                            check=True, capture_output=True, text=True).stdout.split("\n")
    return [path for path in listed if path and os.path.exists(os.path.join(ROOT, path))]


def is_ignored(path):
    return subprocess.run(["git", "-C", ROOT, "check-ignore", "-q", "--no-index", path]).returncode == 0


def prose_lines(text):
    """The document's lines outside fenced code blocks, with their numbers."""
    fence = None
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.lstrip()
        marker = stripped[:3]
        if fence is None and marker in ("```", "~~~"):
            fence = marker
            continue
        if fence is not None:
            if stripped.startswith(fence):
                fence = None
            continue
        yield number, line


def slug(heading):
    """GitHub's anchor of a heading: lowercase, punctuation dropped, spaces as hyphens."""
    heading = re.sub(r"`|\*\*|\*|_(?=\w)|(?<=\w)_", "", heading)
    heading = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def anchors(path):
    return {slug(match.group(1)) for _, line in prose_lines(open(path).read()) if (match := HEADING.match(line))}


class Index:
    """What the repository holds, to resolve the paths that documents name."""

    def __init__(self):
        files = repository_files()
        self.names = {os.path.basename(path) for path in files}
        self.module_folders = {}
        for path in files:
            parts = path.split("/")
            if "Sources" in parts[:-2]:
                at = parts.index("Sources")
                self.module_folders.setdefault(parts[at + 1], set()).add("/".join(parts[: at + 2]))

    def candidates(self, token, document_folder):
        """The places `token` may name, or None when it does not look like a path of this repository."""
        token = token.rstrip("/")
        first = token.split("/")[0]
        if "/" not in token:
            if token.endswith(FILE_EXTENSIONS) and re.fullmatch(r"[\w.+\-]+", token):
                return ["name:" + token]
            return None
        places = []
        if os.path.exists(os.path.join(ROOT, first)):
            places.append(token)
        if os.path.exists(os.path.join(ROOT, document_folder, first)):
            places.append(os.path.normpath(os.path.join(document_folder, token)))
        for folder in sorted(self.module_folders.get(first, ())):
            places.append(os.path.join(os.path.dirname(folder), token))
        return places or None

    def swift_sources(self):
        """The text of each Swift file, by the types it declares or extends (read once, on first use)."""
        if not hasattr(self, "_types"):
            self._types, aliases = {}, {}
            for path in repository_files():
                if path.endswith(".swift"):
                    text = open(os.path.join(ROOT, path), errors="replace").read()
                    for name in set(TYPE_DECLARATION.findall(text)):
                        self._types.setdefault(name, []).append(text)
                    aliases.update(re.findall(r"\btypealias\s+([A-Z]\w*)\s*=\s*(?:[A-Z]\w*\.)*([A-Z]\w*)", text))
            # A member of an alias is declared where its type is.
            for alias, target in aliases.items():
                self._types[alias] = self._types.get(alias, []) + self._types.get(target, [])
        return self._types

    def symbol_problem(self, type_name, member):
        """Why `type_name.member` names nothing of the sources, or None when it does (or names another library's)."""
        texts = self.swift_sources().get(type_name)
        if texts is None:
            return None if type_name in EXTERNAL_TYPES else f"no Swift file declares a type {type_name}"
        declared = re.compile(
            r"(?:\b(?:let|var|func|case|typealias|class|struct|enum|actor|protocol)\s+|\bcase\s[^\n=]*[ ,(])"
            + re.escape(member) + r"\b"
        )
        if member == "init" or any(declared.search(text) for text in texts):
            return None
        return f"no file that declares or extends {type_name} declares a member {member}"

    def exists(self, place):
        if place.startswith("name:"):
            return place.removeprefix("name:") in self.names
        return os.path.exists(os.path.join(ROOT, place)) or is_ignored(place)


def check(document, index):
    problems = []
    folder = os.path.dirname(document)
    for number, line in prose_lines(open(os.path.join(ROOT, document)).read()):
        for match in LINK.finditer(line):
            target = match.group(1)
            if re.match(r"^[a-z][a-z0-9+.\-]*:", target) or target.startswith("<"):
                continue  # a URL, mailto: or a DocC link
            path, _, anchor = target.partition("#")
            resolved = os.path.normpath(os.path.join(folder, path)) if path else document
            if not os.path.exists(os.path.join(ROOT, resolved)):
                problems.append(f"{document}:{number}: the link {target} points at {resolved}, which does not exist")
            elif anchor and resolved.endswith(".md") and anchor not in anchors(os.path.join(ROOT, resolved)):
                problems.append(f"{document}:{number}: the link {target}: {resolved} has no heading #{anchor}")
        for match in CODE_SPAN.finditer(line):
            token = match.group(1).strip()
            if re.search(r"[<>…*$~ {}()|=,;]", token) or token.startswith(("-", "/", "http")):
                continue  # a placeholder, a pattern, a command line or code, a URL
            symbol = SYMBOL.fullmatch(token)
            if symbol and not token.endswith(FILE_EXTENSIONS + (".resolved", ".docc")):
                problem = index.symbol_problem(symbol.group(1), symbol.group(2))
                if problem:
                    problems.append(f"{document}:{number}: `{token}`: {problem}")
                continue
            places = index.candidates(token, folder)
            if places and not any(index.exists(place) for place in places):
                problems.append(f"{document}:{number}: `{token}` names a file that does not exist")
    return problems


def main():
    chosen = sys.argv[1:] or documents()
    index = Index()
    problems = [problem for document in chosen for problem in check(document, index)]
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} broken pointers in the documents; fix the path or the sentence around it.")
        sys.exit(1)
    print(f"documents: {len(chosen)} checked, every relative link, file path and Swift symbol exists")


main()
