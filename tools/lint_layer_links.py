#!/usr/bin/env python3
"""Link-layer check: each layer's library resolves its symbols only in the layers below it.

<room>/CMakeLists.txt builds librepartsim_<room>_<folder>.a (in BUILD/<room>/) for every line of
<room>/layers.txt, for the rooms model/ and checker/ (tools/lint_layers.py), and links it to the
layers that line names. A static library links even when one of its objects calls a function of
a library above it (the aggregate link line happens to hold both), so this script reads the
libraries with `nm`: a symbol a library leaves undefined that is defined only in a layer's
library outside its allowed layers (itself and, transitively, the layers its line names) is a
finding, printed as
`librepartsim_<room>_<folder>.a: <symbol> is defined in <other layer>, which <room>/<folder> may
not use (<room>/layers.txt:N)`, and the exit code is 1. Symbols defined in no layer's library
(the engine, the C++ library, SQLite, yaml-cpp) are not checked.

Usage:
  lint_layer_links.py ROOT BUILD [--nm NM]           exit 1 on findings
  lint_layer_links.py ROOT BUILD [--nm NM] --expect-failure-without LAYER:DEP
                                  check as if LAYER's line did not name DEP (both as
                                  <room>/<folder>); exit 0 iff that gives a finding for LAYER
                                  (so the check can fail)
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lint_layers import read_layers  # noqa: E402


def library_of(build, layer):
    room, folder = layer.split("/", 1)
    return os.path.join(build, room, f"librepartsim_{room}_{folder}.a")


def symbols(nm, path):
    """Returns (defined, undefined) mangled symbol sets of a static library."""
    result = subprocess.run([nm, "--format=posix", path], capture_output=True, text=True,
                            check=True)
    defined, undefined = set(), set()
    for line in result.stdout.splitlines():
        fields = line.split()
        if len(fields) < 2 or line.endswith(":"):
            continue  # an archive member header (`lib.a[obj.o]:`)
        name, kind = fields[0], fields[1]
        if kind == "U":
            undefined.add(name)
        elif kind.isupper() or kind in ("u", "v", "w"):
            defined.add(name)
    return defined, undefined - defined


def closure(allowed, folder):
    seen, todo = {folder}, [folder]
    while todo:
        for dep in allowed[todo.pop()]:
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return seen


def check(layers, libs):
    findings = []
    for folder in sorted(libs, key=lambda f: layers.index[f]):
        reach = closure(layers.allowed, folder)
        _, undefined = libs[folder]
        for symbol in sorted(undefined):
            if any(symbol in libs[f][0] for f in reach if f in libs):
                continue
            owners = sorted(f for f in libs if symbol in libs[f][0])
            if owners:
                findings.append((folder, f"{os.path.basename(library_of('', folder))}: {symbol} "
                                 f"is defined in {' '.join(owners)}, which {folder} may not "
                                 f"use ({layers.line[folder]})"))
    return findings


def main(argv):
    args = argv[1:]
    nm = "nm"
    if "--nm" in args:
        i = args.index("--nm")
        nm = args[i + 1]
        del args[i:i + 2]
    drop = None
    if "--expect-failure-without" in args:
        i = args.index("--expect-failure-without")
        drop = args[i + 1].split(":")
        del args[i:i + 2]
    if len(args) != 2 or (drop is not None and len(drop) != 2):
        print(__doc__, file=sys.stderr)
        return 64
    root, build = args
    layers, table_findings = read_layers(root)
    for finding in table_findings:
        print(finding)
    if table_findings:
        return 1
    libs = {}
    for folder in layers.allowed:
        path = library_of(build, folder)
        if os.path.exists(path):
            libs[folder] = symbols(nm, path)
    if not libs:
        print(f"lint_layer_links: no layer libraries under {build}", file=sys.stderr)
        return 64
    if drop is not None:
        folder, dep = drop
        if dep not in layers.allowed.get(folder, set()):
            print(f"lint_layer_links: {layers.line.get(folder, folder)}: {folder} may not use {dep}",
                  file=sys.stderr)
            return 64
        layers.allowed[folder] = layers.allowed[folder] - {dep}
        findings = [message for f, message in check(layers, libs) if f == folder]
        for message in findings[:5]:
            print(message)
        print(f"lint_layer_links: {len(findings)} finding(s) for {folder} without {dep}")
        return 0 if findings else 1
    findings = check(layers, libs)
    for _, message in findings:
        print(message)
    if findings:
        print(f"lint_layer_links: {len(findings)} finding(s)")
        return 1
    print(f"lint_layer_links: clean ({len(libs)} libraries)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
