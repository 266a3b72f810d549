#!/usr/bin/env python3
"""Fails when a Markdown document of the repository points at a file that does not exist.

The documents: README.md, CONTRIBUTING.md, Docs/*.md, every other README.md, and the DocC articles
(`*.docc/*.md`). Two kinds of pointer are checked, outside fenced code blocks:

- a relative link, `[text](path)` or `[text](path#anchor)`: the path must exist, relative to the
  document; an anchor into a Markdown file must be one of its headings (GitHub's slugs);
- a file path in backticks: `Packages/ConfigModel/...`, `Scripts/check-docs.py`, a path relative to the
  document, a module-relative path (`ConfigModel/Locked.swift`, found under some `*/Sources/ConfigModel/`),
  or a bare file name with a source or document extension (`Exports.swift`, found anywhere in the
  repository). A token counts as a path only when it starts at something that exists (a top-level entry,
  an entry beside the document, a module folder) or names such a file; placeholders (`<Name>`, `…`, `*`)
  and paths git ignores (build products, `.swiftpm/`) are skipped.

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
    print(f"documents: {len(chosen)} checked, every relative link and file path exists")


main()
