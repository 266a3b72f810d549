#!/usr/bin/env bash
# `make check-apple`: compiles the SDK for iOS and macOS against real Apple SDK interfaces, on Linux, and fails on
# any error that is the project's. Three parts:
#   1. ../shared/apple/typecheck.sh ios macos (its README says what it proves and what it does not): every module,
#      the three traits, and Scripts/MainActorApp as an iOS app module with Xcode 26's defaults. The errors it marks
#      as the macOS 14 beta SDK's standard library's ("[Swift 5.x SDK stdlib, not the project]") are set aside, as
#      are the traits' dependencies' own errors; everything else fails this check.
#   2. Scripts/OpenFeatureApp, the provider page's SwiftUI code, as an iOS app module with the same defaults and
#      warnings as errors, against the modules that part 1 built with the traits on (OpenFeature is the trait's).
#   3. ConfigEmulator, a library product that part 1 does not list, for iOS (an app's tests may start one).
#   4. ConfigInspector and ConfigDirectorInspector for iOS and macOS, where part 1 did not compile them (typecheck.sh
#      compiles the modules its MODULES list names), then Scripts/InspectorApp, README's inspector example, as an iOS
#      app module with the same defaults as part 2, against them.
# The SDKs live outside every repository (/tmp/apple-sdks): where they are not prepared, as on a fresh CI machine,
# this prints one line saying so and passes. Getting them: CONTRIBUTING.md, "Apple platforms".
#
# Env: APPLE_TYPECHECK (the script; ../shared/apple/typecheck.sh beside the clone), and the script's own
# APPLE_SDK_ROOT, APPLE_IOS_SDK, APPLE_MACOS_SDK, APPLE_TYPECHECK_WORK, SWIFTC.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
script=${APPLE_TYPECHECK:-$root/../shared/apple/typecheck.sh}
sdk_root=${APPLE_SDK_ROOT:-/tmp/apple-sdks}
ios_sdk=${APPLE_IOS_SDK:-$sdk_root/iPhoneOS18.6.sdk}
macos_sdk=${APPLE_MACOS_SDK:-$sdk_root/MacOSX14.0.sdk}
work=${APPLE_TYPECHECK_WORK:-/tmp/apple-typecheck}
swiftc=${SWIFTC:-swiftc}

prepared() { [ -d "$1/usr/lib/swift" ]; }
if ! prepared "$ios_sdk" && ! prepared "$macos_sdk"; then
    echo "check-apple: skipped: no Apple SDK is prepared in $sdk_root (CONTRIBUTING.md, \"Apple platforms\", says how)"
    exit 0
fi
if [ ! -f "$script" ]; then
    echo "check-apple: skipped: the SDKs are prepared but $script is missing (../shared beside the clone holds it)"
    exit 0
fi
for sdk in "$ios_sdk" "$macos_sdk"; do
    prepared "$sdk" || {
        echo "check-apple: FAILED: $sdk is missing while another SDK is prepared: run $script --prepare"
        exit 1
    }
done

log=$(mktemp "${TMPDIR:-/tmp}/check-apple.XXXXXX")
trap 'rm -f "$log"' EXIT
echo "== ../shared/apple/typecheck.sh ios macos"
(cd "$root" && bash "$script" ios macos) 2>&1 | tee "$log"

# Part 1's verdict, from the script's last line.
python3 - "$log" <<'PY' || exit 1
import re, sys
lines = [l.strip() for l in open(sys.argv[1]) if l.startswith("apple-typecheck:")]
if not lines:
    sys.exit("check-apple: FAILED: typecheck.sh printed no summary")
summary, problems = lines[-1], []
ios = re.search(r"(\d+)/(\d+) modules type-check \(ios\)", summary)
macos = re.search(r"(\d+)/(\d+) \(macos(?:; (\d+)/(\d+) once the \d+ errors of the Swift 5\.x SDK stdlib are set aside)?\)",
                  summary)
if not ios or ios.group(1) != ios.group(2):
    problems.append("a module does not compile for iOS")
if not macos:
    problems.append("no macOS result")
else:
    passed, total = (macos.group(3), macos.group(4)) if macos.group(3) else (macos.group(1), macos.group(2))
    if passed != total:
        problems.append("a module does not compile for macOS beyond the SDK stdlib's own errors")
if "MainActorApp ok" not in summary:
    problems.append("Scripts/MainActorApp does not compile for iOS")
if re.search(r"docs FAILS", summary):
    problems.append("the docs consumer does not compile for iOS")
if problems:
    sys.exit("check-apple: FAILED: " + "; ".join(problems) + " (the errors are listed above)")
print("check-apple: every module, the traits and MainActorApp compile (macOS: the SDK stdlib's errors set aside)")
PY

# Parts 2 and 3: compiled as typecheck.sh compiles its app module and the project's modules, with its SDK flags.
target=$(sed -n 's/^== ios: .*, target \(arm64-apple-ios[0-9.]*\)$/\1/p' "$log" | head -1)
[ -n "$target" ] || { echo "check-apple: FAILED: typecheck.sh named no iOS target"; exit 1; }
# The package's language mode and shared settings, as typecheck.sh read them from the root manifest.
package_settings=$(sed -n 's/^checkout .*; swift \([0-9.]*\) mode, \(.*\)$/-swift-version \1 \2/p' "$log" | head -1)
[ -n "$package_settings" ] || { echo "check-apple: FAILED: typecheck.sh named no language mode"; exit 1; }
sdkflags=(-target "$target" -sdk "$ios_sdk" -resource-dir "$work/ios/resource" -module-cache-path "$work/ios/module-cache")
out=$(mktemp -d "${TMPDIR:-/tmp}/check-apple-modules.XXXXXX")
trap 'rm -f "$log"; rm -rf "$out"' EXIT
status=0
compile() { # LABEL -- SWIFTC ARGUMENTS...
    local label=$1
    shift 2
    if (cd "$root" && "$swiftc" -emit-module -wmo -Onone -DDEBUG "${sdkflags[@]}" "$@") >"$out/log" 2>&1; then
        echo "   $label: ok"
    else
        echo "   $label: FAILS"
        grep -E "^([^ ].*:[0-9]+:[0-9]+: |<unknown>:0: |)(error|warning): " "$out/log" | sed "s|^$root/||; s/^/     /"
        status=1
    fi
}
echo "== ios: the app and library modules that typecheck.sh does not compile, target $target"
mapfile -t app < <(find "$root/Scripts/OpenFeatureApp" -name '*.swift' | sort)
compile "OpenFeatureApp (Scripts/OpenFeatureApp, the traits' modules, warnings as errors)" -- \
    -module-name OpenFeatureApp -parse-as-library -swift-version 6 -default-isolation MainActor \
    -enable-upcoming-feature NonisolatedNonsendingByDefault -enable-upcoming-feature InferIsolatedConformances \
    -warnings-as-errors -I "$work/ios/modules-traits" -I "$work/ios/deps" \
    -emit-module-path "$out/OpenFeatureApp.swiftmodule" "${app[@]}"
mapfile -t emulator < <(find "$root/Tools/ConfigEmulator/Sources/ConfigEmulator" -name '*.swift' | sort)
compile "ConfigEmulator (Tools/ConfigEmulator)" -- \
    -module-name ConfigEmulator -parse-as-library -enable-testing -DSWIFT_PACKAGE $package_settings \
    -package-name configdirector_swift_sdk \
    -I "$work/ios/modules" -emit-module-path "$out/ConfigEmulator.swiftmodule" "${emulator[@]}"

# Part 4. Each platform's flags as typecheck.sh printed them (macOS: its SwiftUI prebuilt from a patched interface).
for plat in ios macos; do
    plat_target=$(sed -n "s/^== $plat: .*, target \([^ ]*\)\$/\1/p" "$log" | head -1)
    [ -n "$plat_target" ] || { echo "check-apple: FAILED: typecheck.sh named no $plat target"; exit 1; }
    case $plat in ios) plat_sdk=$ios_sdk ;; macos) plat_sdk=$macos_sdk ;; esac
    sdkflags=(-target "$plat_target" -sdk "$plat_sdk" -resource-dir "$work/$plat/resource"
        -module-cache-path "$work/$plat/module-cache")
    [ -d "$work/$plat/prebuilt" ] && sdkflags+=(-I "$work/$plat/prebuilt")
    mkdir -p "$out/$plat"
    if grep -q "^   ConfigInspector: " "$log"; then
        echo "== $plat: ConfigInspector and ConfigDirectorInspector: compiled by typecheck.sh (above)"
        continue
    fi
    echo "== $plat: the modules that typecheck.sh does not list, target $plat_target"
    for entry in "ConfigInspector|Packages/ConfigInspector/Sources/ConfigInspector" \
        "ConfigDirectorInspector|Sources/ConfigDirectorInspector"; do
        IFS='|' read -r name folder <<<"$entry"
        mapfile -t sources < <(find "$root/$folder" -name '*.swift' | sort)
        compile "$name ($folder)" -- \
            -module-name "$name" -parse-as-library -enable-testing -DSWIFT_PACKAGE $package_settings \
            -package-name configdirector_swift_sdk -I "$work/$plat/modules" -I "$out/$plat" \
            -emit-module-path "$out/$plat/$name.swiftmodule" "${sources[@]}"
    done
done
sdkflags=(-target "$target" -sdk "$ios_sdk" -resource-dir "$work/ios/resource" -module-cache-path "$work/ios/module-cache")
echo "== ios: README's inspector example, target $target"
mapfile -t inspector_app < <(find "$root/Scripts/InspectorApp" -name '*.swift' | sort)
compile "InspectorApp (Scripts/InspectorApp, warnings as errors)" -- \
    -module-name InspectorApp -parse-as-library -swift-version 6 -default-isolation MainActor \
    -enable-upcoming-feature NonisolatedNonsendingByDefault -enable-upcoming-feature InferIsolatedConformances \
    -warnings-as-errors -I "$out/ios" -I "$work/ios/modules" \
    -emit-module-path "$out/InspectorApp.swiftmodule" "${inspector_app[@]}"
[ "$status" = 0 ] && echo "check-apple: ok" || echo "check-apple: FAILED (the errors are listed above)"
exit "$status"
