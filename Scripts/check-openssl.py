#!/usr/bin/env python3
"""Fails when a declaration of OpenSSLLibrary.swift differs from the system's OpenSSL headers.

The socket client's TLS opens OpenSSL with `dlopen` and declares by hand, in Swift, the signature of each
function it looks up (the `typealias ...Function` of `@convention(c)` types, and the `let` that holds each
lookup) and the value of each header constant it passes (`static let name = value`, whose doc comment names
the C macro or expression in its first backticks). Nothing in the Swift build sees the headers, so this
script reads those declarations from the Swift file and generates a C++ probe that includes
`<openssl/ssl.h>`, `<openssl/err.h>`, `<openssl/x509_vfy.h>` and `<openssl/x509v3.h>` and, for each function, takes the header's
prototype apart (its return type, then each parameter) and checks each against the Swift type that declares
it, as the Swift compiler imports C types (`int` is `Int32`, `long` and `size_t` are `Int`, `unsigned long`
is `UInt`, `const char *` is `UnsafePointer<CChar>?`, `void *` is `UnsafeMutableRawPointer?`, a pointer to
an OpenSSL type or a callback is `OpaquePointer?`), and checks each constant with `static_assert`. C++
rather than C: Swift's `OpaquePointer?` erases which struct a pointer points to, so no C function pointer
type can be written from the Swift file alone, while a C++ template can ask "is this parameter a pointer".

The probe is only compiled (`-fsyntax-only`), with the first of `$CXX`, c++, g++ and clang++ found.
Each failed check names the Swift declaration and the header's function or macro that differ.

Usage: check-openssl.py [OpenSSLLibrary.swift]
"""

import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
SWIFT_FILE = ROOT / "Packages/ConfigTransport/Sources/ConfigTransport/Internal/Socket/OpenSSLLibrary.swift"
HEADERS = ["openssl/ssl.h", "openssl/err.h", "openssl/x509_vfy.h", "openssl/x509v3.h"]
MARK = "openssl-abi:"

# Each Swift type that a signature may use, and the C++ test of the C type it stands for: the C types that
# the Swift compiler imports as that Swift type, on the 64-bit Linux that the socket client runs on.
SWIFT_TYPES = {
    "Void": "std::is_same_v<T, void>",
    "Int32": "std::is_same_v<T, int>",
    "UInt32": "std::is_same_v<T, unsigned int>",
    "Int": "(std::is_same_v<T, long> || std::is_same_v<T, ssize_t> || std::is_same_v<T, size_t>)",
    "UInt": "std::is_same_v<T, unsigned long>",
    "UnsafePointer<CChar>?": "std::is_same_v<T, const char *>",
    "UnsafeMutablePointer<CChar>?": "std::is_same_v<T, char *>",
    "UnsafeRawPointer?": "std::is_same_v<T, const void *>",
    "UnsafeMutableRawPointer?": "std::is_same_v<T, void *>",
    # A pointer to anything but void or char: an OpenSSL type (`SSL *`, `const SSL_METHOD *`) or a callback.
    "OpaquePointer?": (
        "(std::is_pointer_v<T> && !std::is_void_v<std::remove_cv_t<std::remove_pointer_t<T>>>"
        " && !std::is_same_v<std::remove_cv_t<std::remove_pointer_t<T>>, char>)"
    ),
}

TYPEALIAS = re.compile(
    r"typealias\s+(\w+)\s*=\s*@Sendable\s+@convention\(c\)\s*\(([^)]*)\)\s*->\s*([\w<>?]+)", re.S
)
PROPERTY = re.compile(r"^\s*let\s+(\w+)\s*:\s*(\w+Function)\s*$", re.M)
LOOKUP = re.compile(r"^\s*(\w+)\s*=\s*try\s+Self\.function\(\s*\"(\w+)\"", re.M)
CONSTANT = re.compile(
    r"((?:^[ \t]*///.*\n)+)[ \t]*static\s+let\s+(\w+)\s*(?::\s*(\w+))?\s*=\s*([0-9xXa-fA-F|\s]+?)\s*$", re.M
)
STATIC_LET = re.compile(r"^\s*static\s+let\s+(\w+)", re.M)
# The static lets that are not header constants: the loaded library.
NOT_CONSTANTS = {"shared"}
BACKTICKS = re.compile(r"`([^`]+)`")


def fail(message):
    print(f"check-openssl: {message}", file=sys.stderr)
    sys.exit(1)


def parse(source):
    """The functions (C name, Swift property, alias, parameters, return) and constants of the Swift file."""
    aliases = {}
    for name, parameters, result in TYPEALIAS.findall(source):
        listed = [" ".join(p.split()) for p in parameters.split(",") if p.strip()]
        aliases[name] = (listed, result)
    properties = dict(PROPERTY.findall(source))
    functions = []
    for property_name, c_name in LOOKUP.findall(source):
        alias = properties.get(property_name)
        if alias is None:
            fail(f"`{property_name}` looks up {c_name} but no `let {property_name}: <Alias>Function` declares it")
        if alias not in aliases:
            fail(f"`{property_name}: {alias}` looks up {c_name} but no `typealias {alias}` of a C function is found")
        parameters, result = aliases[alias]
        functions.append((c_name, property_name, alias, parameters, result))
    unused = set(aliases) - {alias for _, _, alias, _, _ in functions}
    if unused:
        fail(f"typealias {', '.join(sorted(unused))} declared but no looked-up function uses it")
    constants = []
    for comment, name, swift_type, value in CONSTANT.findall(source):
        named = BACKTICKS.search(comment)
        if named is None:
            fail(f"`static let {name}` has no doc comment naming its header constant in backticks")
        constants.append((name, swift_type or "Int", " ".join(value.split()), named.group(1)))
    unread = set(STATIC_LET.findall(source)) - NOT_CONSTANTS - {name for name, _, _, _ in constants}
    if unread:
        fail(
            f"static let {', '.join(sorted(unread))}: not understood as a header constant (write it as "
            "`static let name: Type = <integer literals joined by |>` after a doc comment that names the C "
            "macro in backticks), or not listed in NOT_CONSTANTS"
        )
    if not functions or not constants:
        fail("found no function lookups or no constants: has OpenSSLLibrary.swift changed shape?")
    return functions, constants


def swift_test(swift_type, where):
    if swift_type not in SWIFT_TYPES:
        fail(f"{where}: no rule for the Swift type `{swift_type}` (add one to SWIFT_TYPES in {__file__})")
    return SWIFT_TYPES[swift_type]


def probe(functions, constants):
    """The C++ source that checks every declaration."""
    lines = ['#include <cstddef>', '#include <sys/types.h>', '#include <type_traits>']
    lines += [f"#include <{header}>" for header in HEADERS]
    lines += [
        "// The type of parameter I, or void past the last one (its count is checked on its own).",
        "template <std::size_t I, class... A> struct At { using type = void; };",
        "template <class H, class... A> struct At<0, H, A...> { using type = H; };",
        "template <std::size_t I, class H, class... A> struct At<I, H, A...> { using type = typename At<I - 1, A...>::type; };",
        "template <class F> struct Signature;",
        "template <class R, class... A> struct Signature<R(A...)> {",
        "    using Return = R;",
        "    static constexpr std::size_t count = sizeof...(A);",
        "    template <std::size_t I> using Parameter = typename At<I, A...>::type;",
        "};",
    ]
    rules = {}
    for index, swift_type in enumerate(SWIFT_TYPES):
        rules[swift_type] = f"swift_type_{index}"
        lines.append(f"template <class T> constexpr bool swift_type_{index} = {SWIFT_TYPES[swift_type]};")
    for c_name, property_name, alias, parameters, result in functions:
        where = f"`{property_name}: {alias}`"
        signature = f"Signature<decltype({c_name})>"
        swift = f"({', '.join(parameters)}) -> {result}"
        lines.append(
            f'static_assert({signature}::count == {len(parameters)}, "{MARK} {c_name}: {where} declares {swift}, '
            f'but its header prototype does not take {len(parameters)} parameters");'
        )
        swift_test(result, where)
        lines.append(
            f"static_assert({rules[result]}<{signature}::Return>, \"{MARK} {c_name}: {where} declares {swift}, "
            f'but its header prototype does not return a C type that Swift imports as {result}");'
        )
        for index, parameter in enumerate(parameters):
            swift_test(parameter, where)
            lines.append(
                f"static_assert({signature}::count != {len(parameters)} || "
                f"{rules[parameter]}<{signature}::Parameter<{index}>>, \"{MARK} {c_name}: {where} declares "
                f"{swift}, but parameter {index + 1} of its header prototype is not a C type that Swift imports "
                f'as {parameter}");'
            )
    for name, swift_type, value, c_expression in constants:
        lines.append(
            f'static_assert(({c_expression}) == ({value}), "{MARK} static let {name}: {swift_type} = {value}, '
            f'but the header has {c_expression} != {value}");'
        )
        limits = {"Int32": "int", "UInt32": "unsigned int", "Int": "long", "UInt": "unsigned long"}
        if swift_type not in limits:
            fail(f"static let {name}: no rule for the constant type `{swift_type}`")
        lines.append(
            f"static_assert(static_cast<{limits[swift_type]}>({c_expression}) == ({c_expression}), "
            f'"{MARK} {c_expression} does not fit the type {swift_type} of static let {name}");'
        )
    return "\n".join(lines) + "\n"


def compiler():
    for candidate in [os.environ.get("CXX"), "c++", "g++", "clang++"]:
        if candidate and shutil.which(candidate):
            return candidate
    fail("no C++ compiler found ($CXX, c++, g++, clang++): install one (Debian: g++)")


def main():
    swift_file = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else SWIFT_FILE
    functions, constants = parse(swift_file.read_text())
    cxx = compiler()
    with tempfile.TemporaryDirectory() as folder:
        version_probe = pathlib.Path(folder, "version.cpp")
        version_probe.write_text("#include <openssl/opensslv.h>\nOPENSSL_VERSION_TEXT\n")
        version = subprocess.run([cxx, "-E", "-P", str(version_probe)], capture_output=True, text=True)
        if version.returncode != 0:
            fail(f"<openssl/opensslv.h> not found by {cxx}: install the headers (Debian: libssl-dev)\n{version.stderr}")
        path = pathlib.Path(folder, "openssl_probe.cpp")
        path.write_text(probe(functions, constants))
        compiled = subprocess.run(
            [cxx, "-std=c++17", "-fsyntax-only", "-Wall", "-Werror", str(path)], capture_output=True, text=True
        )
    # The last line of the preprocessed probe is the expanded version string, such as "OpenSSL 3.0.19 27 Jan 2026".
    headers = version.stdout.strip().splitlines()[-1].strip().strip('"')
    if compiled.returncode != 0:
        differences = []
        for line in compiled.stderr.splitlines():
            if "error" in line and MARK in line:
                difference = line.split(MARK, 1)[1].strip().rstrip('"')
                if difference not in differences:
                    differences.append(difference)
            elif "comparison reduces to" in line and differences:
                # GCC's note on a failed constant: the header's value, then the Swift one.
                differences[-1] += f" ({line.split('note:', 1)[-1].strip()}: the header's value first)"
        if not differences:
            fail(f"the probe did not compile against {headers}:\n{compiled.stderr}")
        print(f"check-openssl: {swift_file.name} differs from the headers of {headers}:", file=sys.stderr)
        for difference in differences:
            print(f"  {difference}", file=sys.stderr)
        sys.exit(1)
    print(f"check-openssl: {len(functions)} functions and {len(constants)} constants of {swift_file.name} "
          f"agree with the headers of {headers} ({cxx})")


if __name__ == "__main__":
    main()
