#!/usr/bin/env python3
"""Lists the public API of the SDK's modules from a build's symbol graphs, one declaration a line.

`make check-api` compares the list with Scripts/public-api.txt and fails on any difference, so that the
public API changes only on purpose; `make api` rewrites the file after a deliberate change. Each public
symbol is listed with its declaration (the symbol graph's declaration fragments on one line), its generic
constraints (those of its enclosing type and extension included) and its availability, so that a renamed
parameter, a changed type or a dropped constraint fails the check, not only a symbol that appears or goes.
Each conformance and superclass of a public type is a line of its own (with its conditions), so that a
dropped `Sendable` fails it too; the conformances every type has (`Copyable`, `Escapable`, and
`SendableMetatype`, which `Sendable` implies) are left out.

SPI symbols (`@_spi(Internal)`, `@_spi(Testing)`...) are not API and are left out. The list is the one
Linux builds; Apple platforms add nothing but their own platform code paths.

Usage: public-api.py MODULES_DIR LISTING [--modules A,B] [--beyond LISTING] [--write]
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

# The modules that library products expose with a public API of their own (the umbrella modules only
# re-export these). What exists only with a trait (ConfigOpenFeature's provider with `OpenFeature`,
# ConfigClient's `SwiftLogLogger` with `Logging` and `TracingHook` with `Tracing`) is listed by
# `make check-api-traits` from a build with every trait on, beyond what Scripts/public-api.txt lists, into
# Scripts/public-api-traits.txt.
MODULES = [
    "ConfigModel", "ConfigTransport", "ConfigStore", "ConfigClient", "ConfigTesting", "ConfigOpenFeature",
    "ConfigInspector", "ConfigEmulator",
]
# Conformances that every type has, or that another listed one implies.
IMPLIED_PROTOCOLS = {"Swift.Copyable", "Swift.Escapable", "Swift.SendableMetatype"}


def triple():
    output = subprocess.run(["swift", "-print-target-info"], check=True, capture_output=True, text=True).stdout
    return json.loads(output)["target"]["triple"]


def declaration(symbol):
    return "".join(fragment["spelling"] for fragment in symbol.get("declarationFragments", [])).replace("\n", " ")


def constraint(item):
    operator = " == " if item["kind"] == "sameType" else ": "
    return f"{item['lhs']}{operator}{item['rhs']}"


def conditions(constraints):
    return f" where {', '.join(constraint(item) for item in constraints)}" if constraints else ""


def version(value):
    return ".".join(str(value[part]) for part in ("major", "minor", "patch") if part in value)


def availability(symbol):
    entries = []
    for item in symbol.get("availability", []):
        words = [item.get("domain", "*")]
        if "introduced" in item:
            words.append(f"introduced {version(item['introduced'])}")
        if "deprecated" in item:
            words.append(f"deprecated {version(item['deprecated'])}")
        if "obsoleted" in item:
            words.append(f"obsoleted {version(item['obsoleted'])}")
        if item.get("isUnconditionallyDeprecated"):
            words.append("deprecated")
        if item.get("isUnconditionallyUnavailable"):
            words.append("unavailable")
        if "renamed" in item:
            words.append(f"renamed {item['renamed']}")
        if "message" in item:
            words.append(f"message {item['message']!r}")
        entries.append(" ".join(words))
    return f" @available({', '.join(sorted(entries))})" if entries else ""


def symbol_line(module, symbol):
    kind = symbol["kind"]["identifier"].removeprefix("swift.")
    path = ".".join(symbol["pathComponents"])
    text = declaration(symbol)
    # The constraints the declaration does not spell: its enclosing type's and extension's.
    unspelled = [
        item for item in symbol.get("swiftGenerics", {}).get("constraints", [])
        if constraint(item).replace(": ", " : ") not in text
    ]
    generics = f" |{conditions(unspelled)}" if unspelled else ""
    return f"{module} {kind} {path} | {text}{generics}{availability(symbol)}"


def relationship_lines(module, graph, public, names):
    """The conformances and superclasses of the graph's public types, one line each; `names` holds the
    path of every symbol of every graph, for targets declared in another graph of the module."""
    lines = set()
    for relationship in graph["relationships"]:
        kind = {"conformsTo": "conformance", "inheritsFrom": "inherits"}.get(relationship["kind"])
        source = public.get(relationship["source"])
        if kind is None or source is None:
            continue
        target = names.get(relationship["target"]) or relationship.get("targetFallback", relationship["target"])
        if target in IMPLIED_PROTOCOLS:
            continue
        extended_module = source.get("swiftExtension", {}).get("extendedModule")
        if source["kind"]["identifier"] == "swift.extension" and target.startswith(f"{extended_module}."):
            continue  # a conformance the extended type has in its own module, not one this module adds
        where = conditions(relationship.get("swiftConstraints", []))
        lines.add(f"{module} {kind} {names[relationship['source']]}: {target.removeprefix('Swift.')}{where}")
    return lines


def api_lines(modules_dir, modules):
    lines = set()
    # The C modules of dependencies (OpenCombine's helpers, with the trait OpenFeature): their module maps
    # sit in their build folders, beside the Swift modules' folder.
    c_modules = sorted(glob.glob(os.path.join(modules_dir, "..", "*.build", "module.modulemap")))
    includes = [argument for path in c_modules for argument in ("-I", os.path.dirname(path))]
    with tempfile.TemporaryDirectory() as folder:
        target = triple()
        for module in modules:
            subprocess.run(
                [
                    "swift-symbolgraph-extract", "-module-name", module, "-I", modules_dir, *includes, "-target", target,
                    "-output-dir", folder, "-minimum-access-level", "public", "-skip-synthesized-members",
                    "-emit-extension-block-symbols",
                ],
                check=True,
            )
        graphs = [json.load(open(path)) for path in sorted(glob.glob(os.path.join(folder, "*.symbols.json")))]
        names = {
            symbol["identifier"]["precise"]: ".".join(symbol["pathComponents"])
            for graph in graphs
            for symbol in graph["symbols"]
        }
        for graph in graphs:
            module = graph["module"]["name"]
            public = {
                symbol["identifier"]["precise"]: symbol for symbol in graph["symbols"] if not symbol.get("spi")
            }
            lines |= {symbol_line(module, symbol) for symbol in public.values()}
            lines |= relationship_lines(module, graph, public, names)
    return sorted(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules_dir")
    parser.add_argument("listing")
    parser.add_argument("--modules", default=",".join(MODULES), help="comma-separated module names")
    parser.add_argument("--beyond", help="a listing whose lines are left out: list only what a trait build adds")
    parser.add_argument("--write", action="store_true", help="rewrite the listing instead of comparing")
    arguments = parser.parse_args()
    current = api_lines(arguments.modules_dir, arguments.modules.split(","))
    if arguments.beyond:
        listed = set(open(arguments.beyond).read().splitlines())
        current = [line for line in current if line not in listed]
    listing = arguments.listing
    if arguments.write:
        open(listing, "w").write("\n".join(current) + "\n")
        print(f"wrote {len(current)} public declarations and conformances to {listing}")
        return
    expected = [line for line in open(listing).read().splitlines() if line]
    added = sorted(set(current) - set(expected))
    removed = sorted(set(expected) - set(current))
    for line in removed:
        print(f"- {line}  (in {listing}, but no longer public as written)")
    for line in added:
        print(f"+ {line}  (public, but not in {listing})")
    if added or removed:
        print(f"The public API changed. If it is on purpose, run `make api` and commit {listing}.")
        sys.exit(1)
    print(f"public API: {len(current)} declarations and conformances, as listed in {listing}")


main()
