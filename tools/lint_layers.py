#!/usr/bin/env python3
"""Layering lint: no include runs up the layers of model/, and sim/ knows nothing of model/.

model/layers.txt lists every folder of model/ (bottom first) with the folders it may include;
model/CMakeLists.txt builds one library per line from the same file and links it to exactly
those, so the lint and the build enforce one table. This script checks that
  - every folder under model/ (and model/protocol.*, as `protocol`) has exactly one line, every
    line names an existing folder, and names only folders listed above it (the table is a DAG);
  - every `#include "model/..."` in model/<folder>/ names <folder> itself or a folder its line
    allows, and every other quoted include of a model file names sim/;
  - nothing under sim/ includes anything but sim/ (in particular not model/).
tools/ and tests/ may include anything and are not checked. Each finding prints as
`file:line: message` and the exit code is 1.

Usage:
  lint_layers.py ROOT                        check ROOT/model and ROOT/sim; exit 1 on findings
  lint_layers.py ROOT --expect-failure FILE:LINE...
                                             check each FILE as if it sat at the model/<folder>
                                             (or sim/) its path names; exit 0 iff it has a
                                             finding at exactly LINE and at no other line
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*(?:"([^"]+)"|<((?:model|sim)/[^>]+)>)')
LAYER_LINE = re.compile(r"([a-z_]+)\s*:\s*([a-z_ ]*)")


class Layers:
    def __init__(self):
        self.allowed = {}  # folder -> set of folders it may include
        self.index = {}  # folder -> position in the table, bottom first
        self.line = {}  # folder -> line number in model/layers.txt


def read_layers(root):
    """Returns (Layers, [findings]) from ROOT/model/layers.txt."""
    path = os.path.join(root, "model", "layers.txt")
    layers, findings = Layers(), []
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, start=1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            m = LAYER_LINE.fullmatch(line)
            if m is None:
                findings.append(f"model/layers.txt:{number}: expected `folder: folders...`")
                continue
            folder, deps = m.group(1), m.group(2).split()
            if folder in layers.allowed:
                findings.append(f"model/layers.txt:{number}: {folder} is listed twice "
                                f"(first at line {layers.line[folder]})")
                continue
            for dep in deps:
                if dep not in layers.allowed:
                    findings.append(f"model/layers.txt:{number}: {folder} may use {dep}, which "
                                    "is not listed above it (the layers must form a DAG)")
            layers.allowed[folder] = set(deps)
            layers.index[folder] = len(layers.index)
            layers.line[folder] = number
    return layers, findings


# The files directly under model/ form the `protocol` layer: the Protocol class and its rule
# switches (model/protocol.{h,cc}, model/rules.h).
PROTOCOL_FILES = ("protocol.", "rules.")


def folder_of(rel):
    """The layer of a path ('model/ddl/x.h' -> 'ddl', 'model/protocol.h' and 'model/rules.h' -> 'protocol',
    'sim/x.h' -> 'sim'), judged by its last `model` or `sim` component; None if it has none."""
    parts = rel.replace(os.sep, "/").split("/")
    for i in range(len(parts) - 2, -1, -1):
        if parts[i] == "sim":
            return "sim"
        if parts[i] == "model":
            rest = parts[i + 1:]
            if len(rest) == 1:
                return "protocol" if rest[0].startswith(PROTOCOL_FILES) else None
            return rest[0]
    return None


def target_of(include):
    """The layer an include names: 'sim', a model folder, or None (not a project header)."""
    parts = include.split("/")
    if parts[0] == "sim":
        return "sim"
    if parts[0] != "model" or len(parts) < 2:
        return None
    if len(parts) == 2:
        return "protocol" if parts[1].startswith(PROTOCOL_FILES) else parts[1]
    return parts[1]


def lint_file(path, display, folder, layers):
    """Returns [(line, message)] for the includes of one file of layer `folder`."""
    findings = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, raw in enumerate(f, start=1):
            m = INCLUDE.match(raw)
            if m is None:
                continue
            include = m.group(1) or m.group(2)
            target = target_of(include)
            if folder == "sim":
                if target != "sim":
                    findings.append((number, f"include of {include} from sim/ (sim/ includes "
                                     "only sim/: the engine knows nothing of the model)"))
                continue
            if folder is None or folder not in layers.allowed:
                findings.append((number, f"{display} is in no layer of model/layers.txt"))
                break
            if target in ("sim", folder) or target in layers.allowed[folder]:
                continue
            allowed = " ".join(sorted(layers.allowed[folder])) or "only itself and sim/"
            where = f"model/layers.txt:{layers.line[folder]}"
            if target is None:
                findings.append((number, f"include of {include} from model/{folder}: model/ "
                                 "includes only model/ and sim/ headers"))
            elif target not in layers.index or layers.index[target] > layers.index[folder]:
                findings.append((number, f"upward include of {include} from model/{folder} "
                                 f"(model/{folder} may include: {allowed}; {where})"))
            else:
                findings.append((number, f"include of {include} from model/{folder} is not "
                                 f"in its allow-list (model/{folder} may include: {allowed}; "
                                 f"add {target} at {where} if the dependency is intended)"))
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
    model = os.path.join(root, "model")
    folders = {d for d in os.listdir(model) if os.path.isdir(os.path.join(model, d))}
    folders.add("protocol")
    for missing in sorted(folders - set(layers.allowed)):
        findings.append(f"model/layers.txt:1: folder model/{missing} has no line")
    for stale in sorted(set(layers.allowed) - folders):
        findings.append(f"model/layers.txt:{layers.line[stale]}: {stale} is not a folder of "
                        "model/")
    for path in sources(model):
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
