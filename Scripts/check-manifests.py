#!/usr/bin/env python3
"""Fails when a Packages/<Name>/Package.swift drifts from the root manifest.

For each nested package it compares, against the root manifest's target of the same name:
the set of targets (the package's module and its tests), each target's type, dependencies
(by module or product name, with trait conditions), Swift settings, resources (the privacy
manifests) and excluded files (a folder's README), plus platforms; each trait a nested package declares
(some of the root's) is declared by the root with the same description. Packages/TestSupport holds helper
targets only, none of which may be in a product of the root. Prints what differs; exits 1 on any drift.
"""
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
# The package of test helpers, whose targets the other packages' tests depend on (CONTRIBUTING.md).
SUPPORT = "TestSupport"


def dump(folder):
    out = subprocess.run(
        ["swift", "package", "--package-path", str(folder), "dump-package"],
        check=True, capture_output=True, text=True,
    )
    return json.loads(out.stdout)


def dependency_names(target):
    names = []
    for dependency in target["dependencies"]:
        (kind, values), = dependency.items()
        name = values[0]
        condition = values[-1] if isinstance(values[-1], dict) else None
        traits = tuple(sorted((condition or {}).get("traits") or []))
        names.append((name, traits))
    return sorted(names)


def describe(target):
    return {
        "type": target["type"],
        "dependencies": dependency_names(target),
        "settings": target.get("settings", []),
        "resources": target.get("resources", []),
        "exclude": sorted(target.get("exclude", [])),
    }


def main():
    root = dump(ROOT)
    root_targets = {target["name"]: target for target in root["targets"]}
    root_product_targets = {name for product in root["products"] for name in product["targets"]}
    problems = []
    packages = sorted(path.parent for path in (ROOT / "Packages").glob("*/Package.swift"))
    for folder in packages:
        name = folder.name
        nested = dump(folder)
        nested_names = sorted(target["name"] for target in nested["targets"])
        if name == SUPPORT:
            # The test helpers: library targets only, none of them a product of the root (apps never see them).
            exposed = sorted(set(nested_names) & root_product_targets)
            if exposed:
                problems.append(f"{name}: {exposed} are in products of the root manifest")
            tests = [target["name"] for target in nested["targets"] if target["type"] != "regular"]
            if tests:
                problems.append(f"{name}: declares {tests}, but holds helpers only")
        elif nested_names != sorted([name, f"{name}Tests"]):
            problems.append(f"{name}: targets are {nested_names}, expected {name} and {name}Tests")
        for target in nested["targets"]:
            if target["name"] not in root_targets:
                problems.append(f"{name}: target {target['name']} is not in the root manifest")
                continue
            mine, theirs = describe(target), describe(root_targets[target["name"]])
            for field in mine:
                if mine[field] != theirs[field]:
                    problems.append(
                        f"{name}: {target['name']} {field} differ:\n    nested: {mine[field]}\n    root:   {theirs[field]}"
                    )
        if nested["platforms"] != root["platforms"]:
            problems.append(f"{name}: platforms differ from the root's")
        root_traits = {trait["name"]: trait for trait in root.get("traits") or []}
        for trait in nested.get("traits") or []:
            if root_traits.get(trait["name"]) != trait:
                problems.append(f"{name}: trait {trait['name']} differs from the root's (or the root lacks it)")
        print(f"checked {name}")
    if problems:
        print("Manifests drift from the root:\n- " + "\n- ".join(problems))
        return 1
    print(f"{len(packages)} nested manifests agree with the root.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
