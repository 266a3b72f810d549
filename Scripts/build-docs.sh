#!/usr/bin/env bash
# Builds DocC archives for the given modules into .build/docs/<Module>.doccarchive, with docc from
# the toolchain (the swift-docc-plugin package cannot be fetched here). Symbol graphs come from one
# build in a scratch folder of its own, so the regular build cache is left alone.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
graphs=.build/docs-symbol-graphs
rm -rf "$graphs" && mkdir -p "$graphs"
swift build --scratch-path .build/docs-build \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$root/$graphs" \
    -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public
mkdir -p .build/docs
for module in "$@"; do
    catalog=$(find Packages Sources -type d -path "*/$module/Documentation.docc" | head -n 1)
    module_graphs=".build/docs-symbol-graphs-$module"
    rm -rf "$module_graphs" && mkdir -p "$module_graphs"
    cp "$graphs/$module".symbols.json "$graphs/$module"@*.symbols.json "$module_graphs"/ 2>/dev/null || true
    args=(--additional-symbol-graph-dir "$module_graphs" --fallback-display-name "$module"
          --fallback-bundle-identifier "com.configdirector.$module" --output-path ".build/docs/$module.doccarchive")
    if [ -n "$catalog" ]; then
        docc convert "$catalog" "${args[@]}"
    else
        echo "warning: $module has no Documentation.docc catalog" >&2
        docc convert "${args[@]}"
    fi
    echo "docs: .build/docs/$module.doccarchive"
done
