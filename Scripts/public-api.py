#!/usr/bin/env python3
"""Lists the public API of the SDK's modules from the debug build's symbol graphs, one symbol a line.

`make check-api` compares the list with Scripts/public-api.txt and fails on any difference, so that a
public symbol appears or goes only on purpose; `make api` rewrites the file after a deliberate change.
SPI symbols (`@_spi(Internal)`, `@_spi(Testing)`...) are not API and are left out. The list is the one
Linux builds; Apple platforms add nothing but their own platform code paths.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

MODULES = ["ConfigModel", "ConfigTransport", "ConfigStore", "ConfigClient", "ConfigTesting", "ConfigOpenFeature"]


def triple():
    output = subprocess.run(["swift", "-print-target-info"], check=True, capture_output=True, text=True).stdout
    return json.loads(output)["target"]["triple"]


def symbols(modules_dir):
    lines = set()
    with tempfile.TemporaryDirectory() as folder:
        for module in MODULES:
            subprocess.run(
                [
                    "swift-symbolgraph-extract", "-module-name", module, "-I", modules_dir, "-target", triple(),
                    "-output-dir", folder, "-minimum-access-level", "public", "-skip-synthesized-members",
                    "-emit-extension-block-symbols",
                ],
                check=True,
            )
        for path in sorted(glob.glob(os.path.join(folder, "*.symbols.json"))):
            graph = json.load(open(path))
            module = graph["module"]["name"]
            for symbol in graph["symbols"]:
                if symbol.get("spi"):
                    continue
                kind = symbol["kind"]["identifier"].removeprefix("swift.")
                lines.add(f"{module} {kind} {'.'.join(symbol['pathComponents'])}")
    return sorted(lines)


def main():
    modules_dir, listing = sys.argv[1], sys.argv[2]
    current = symbols(modules_dir)
    if len(sys.argv) > 3 and sys.argv[3] == "--write":
        open(listing, "w").write("\n".join(current) + "\n")
        print(f"wrote {len(current)} public symbols to {listing}")
        return
    expected = [line for line in open(listing).read().splitlines() if line]
    added = sorted(set(current) - set(expected))
    removed = sorted(set(expected) - set(current))
    for line in added:
        print(f"+ {line}  (public, but not in {listing})")
    for line in removed:
        print(f"- {line}  (in {listing}, but no longer public)")
    if added or removed:
        print("The public API changed. If it is on purpose, run `make api` and commit Scripts/public-api.txt.")
        sys.exit(1)
    print(f"public API: {len(current)} symbols, as listed in {listing}")


main()
