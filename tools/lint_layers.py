#!/usr/bin/env python3
"""Layering lint: no include runs up the layers of model/ or checker/, model/ knows nothing of
checker/, and sim/ knows nothing of either.

The tree has two rooms of layers above the engine (sim/): model/ (GreptimeDB as modelled) and
checker/ (what drives and judges it). Each room has a layers.txt listing its folders bottom
first, each with the layers it may include: a bare name is a folder of the same room, and in
checker/layers.txt `model/<folder>` names a folder of model/ (the checker sits above the model;
model/layers.txt can name no checker folder). A layer is named `<room>/<folder>` below.
<room>/CMakeLists.txt builds one library per line from the same file and links it to exactly
those, so the lint and the build enforce one table. This script checks that
  - every folder of a room has exactly one line, every line names an existing folder and only
    layers listed above it (the table is a DAG; model/ comes before checker/);
  - every `#include "<room>/..."` in <room>/<folder>/ names that folder itself, sim/, or a layer
    its line allows, and nothing else (no file sits directly in a room's top folder);
  - nothing under sim/ includes anything but sim/ (in particular not model/ or checker/).
tools/ and tests/ may include anything and are not checked. Each finding prints as
`file:line: message` and the exit code is 1.

Usage:
  lint_layers.py ROOT                        check ROOT/model, ROOT/checker and ROOT/sim; exit 1
                                             on findings
  lint_layers.py ROOT --expect-failure FILE:LINE...
                                             check each FILE as if it sat at the <room>/<folder>
                                             (or sim/) its path names; exit 0 iff it has a
                                             finding at exactly LINE and at no other line
"""
import os
import re
import sys

ROOMS = ("model", "checker")  # bottom first: a room may name layers of the rooms before it
INCLUDE = re.compile(r'^\s*#\s*include\s*(?:"([^"]+)"|<((?:model|checker|sim)/[^>]+)>)')
LAYER_LINE = re.compile(r"([a-z_]+)\s*:\s*([a-z_/ ]*)")


class Layers:
    def __init__(self):
        self.allowed = {}  # layer ("model/ddl") -> set of layers it may include
        self.index = {}  # layer -> position in the tables, bottom first
        self.line = {}  # layer -> "model/layers.txt:N", where its line is


def layers_file(room):
    return f"{room}/layers.txt"


def read_layers(root):
    """Returns (Layers, [findings]) from ROOT/<room>/layers.txt of every room."""
    layers, findings = Layers(), []
    for position, room in enumerate(ROOMS):
        below = ROOMS[:position]
        name = layers_file(room)
        with open(os.path.join(root, name), encoding="utf-8") as f:
            for number, raw in enumerate(f, start=1):
                line = raw.split("#", 1)[0].strip()
                if not line:
                    continue
                m = LAYER_LINE.fullmatch(line)
                if m is None:
                    findings.append(f"{name}:{number}: expected `folder: layers...`")
                    continue
                layer = f"{room}/{m.group(1)}"
                if layer in layers.allowed:
                    findings.append(f"{name}:{number}: {m.group(1)} is listed twice "
                                    f"(first at {layers.line[layer]})")
                    continue
                deps = set()
                for dep in m.group(2).split():
                    qualified = dep if "/" in dep else f"{room}/{dep}"
                    if "/" in dep and dep.split("/", 1)[0] not in below:
                        findings.append(f"{name}:{number}: {m.group(1)} may use {dep}, which is "
                                        f"not in a room below {room}/")
                    elif qualified not in layers.allowed:
                        findings.append(f"{name}:{number}: {m.group(1)} may use {dep}, which is "
                                        "not listed above it (the layers must form a DAG)")
                    deps.add(qualified)
                layers.allowed[layer] = deps
                layers.index[layer] = len(layers.index)
                layers.line[layer] = f"{name}:{number}"
    return layers, findings


def folder_of(rel):
    """The layer of a path ('model/ddl/x.h' -> 'model/ddl', 'checker/run/x.cc' -> 'checker/run',
    'sim/x.h' -> 'sim'), judged by its last room or `sim` component; None if it has none or the
    file sits directly in a room's folder."""
    parts = rel.replace(os.sep, "/").split("/")
    for i in range(len(parts) - 2, -1, -1):
        if parts[i] == "sim":
            return "sim"
        if parts[i] in ROOMS:
            rest = parts[i + 1:]
            return None if len(rest) == 1 else f"{parts[i]}/{rest[0]}"
    return None


def target_of(include):
    """The layer an include names: 'sim', '<room>/<folder>', or None (not a project header)."""
    parts = include.split("/")
    if parts[0] == "sim":
        return "sim"
    if parts[0] not in ROOMS or len(parts) < 3:
        return None
    return f"{parts[0]}/{parts[1]}"


def lint_file(path, display, layer, layers):
    """Returns [(line, message)] for the includes of one file of `layer`."""
    findings = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, raw in enumerate(f, start=1):
            m = INCLUDE.match(raw)
            if m is None:
                continue
            include = m.group(1) or m.group(2)
            target = target_of(include)
            if layer == "sim":
                if target != "sim":
                    findings.append((number, f"include of {include} from sim/ (sim/ includes "
                                     "only sim/: the engine knows nothing of the model or the "
                                     "checker)"))
                continue
            if layer is None or layer not in layers.allowed:
                findings.append((number, f"{display} is in no layer of "
                                 f"{' or '.join(layers_file(r) for r in ROOMS)}"))
                break
            if target in ("sim", layer) or target in layers.allowed[layer]:
                continue
            allowed = " ".join(sorted(layers.allowed[layer])) or "only itself and sim/"
            where = layers.line[layer]
            if target is None:
                findings.append((number, f"include of {include} from {layer}: a layer "
                                 "includes only sim/ and the layers of model/ and checker/"))
            elif target not in layers.index or layers.index[target] > layers.index[layer]:
                findings.append((number, f"upward include of {include} from {layer} "
                                 f"({layer} may include: {allowed}; {where})"))
            else:
                findings.append((number, f"include of {include} from {layer} is not in its "
                                 f"allow-list ({layer} may include: {allowed}; add {target} "
                                 f"at {where} if the dependency is intended)"))
    return findings


def sources(base):
    for directory, dirs, files in os.walk(base):
        dirs.sort()
        for name in sorted(files):
            if name.endswith((".h", ".cc")):
                yield os.path.join(directory, name)


def expect_failure(layers, findings, args):
    targets = [a.rsplit(":", 1) for a in args]
    if not targets or any(len(t) != 2 or not t[1].isdigit() for t in targets):
        print("lint_layers: --expect-failure needs FILE:LINE arguments", file=sys.stderr)
        return 64
    for finding in findings:
        print(finding)
    ok = not findings
    for path, line in targets:
        got = lint_file(path, path, folder_of(path), layers)
        for number, message in got:
            print(f"{path}:{number}: {message}")
        lines = sorted({number for number, _ in got})
        if lines != [int(line)]:
            print(f"lint_layers: {path}: expected a finding at line {line} only, got "
                  f"{lines or 'none'}")
            ok = False
    return 0 if ok else 1


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 64
    root = argv[1]
    layers, findings = read_layers(root)
    if len(argv) >= 3 and argv[2] == "--expect-failure":
        return expect_failure(layers, findings, argv[3:])
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 64
    for room in ROOMS:
        base = os.path.join(root, room)
        folders = {f"{room}/{d}" for d in os.listdir(base) if os.path.isdir(os.path.join(base, d))}
        known = {layer for layer in layers.allowed if layer.startswith(room + "/")}
        for missing in sorted(folders - known):
            findings.append(f"{layers_file(room)}:1: folder {missing} has no line")
        for stale in sorted(known - folders):
            findings.append(f"{layers.line[stale]}: {stale} is not a folder")
        for path in sources(base):
            rel = os.path.relpath(path, root)
            findings += [f"{rel}:{n}: {m}" for n, m in lint_file(path, rel, folder_of(rel), layers)]
    for path in sources(os.path.join(root, "sim")):
        rel = os.path.relpath(path, root)
        findings += [f"{rel}:{n}: {m}" for n, m in lint_file(path, rel, "sim", layers)]
    for finding in findings:
        print(finding)
    if findings:
        print(f"lint_layers: {len(findings)} finding(s)")
        return 1
    print(f"lint_layers: clean ({len(layers.allowed)} layers)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
