#!/usr/bin/env python3
"""Determinism lint (docs/architecture.md section "Determinism rules").

Scans C++ sources under sim/, model/ and checker/ for APIs that break bit-exact replay: the C and C++
random facilities, wall and steady clocks, threads and atomics, getenv, std::hash and unordered
containers. It also enforces the layering rule: nothing under sim/ includes a model/ or checker/ header.
Each finding prints as `file:line: banned <what>: <why>` and the exit code is 1.

An unordered container is allowed on a line that carries the marker comment
`lint: lookup-only` (it is never iterated where the order could reach output).

Usage:
  lint_determinism.py ROOT                      scan ROOT/sim, model, checker; exit 1 on findings
  lint_determinism.py --expect-failure FILE:LINE...
                                                scan each file; exit 0 iff it has a finding at
                                                exactly LINE (and no other line)
"""
import os
import re
import sys

BANNED = [
    (r"\bstd::rand\b|(?<![\w:.>])rand\s*\(", "rand", "use sim::Prng"),
    (r"\bsrand\s*\(", "srand", "use sim::Prng"),
    (r"#\s*include\s*<random>", "<random>", "engines/distributions differ across libraries"),
    (r"\brandom_device\b|\bmt19937|\bminstd_rand|\bdefault_random_engine\b",
     "random engine", "use sim::Prng"),
    (r"\b\w+_distribution\b", "random distribution", "use sim::Prng"),
    (r"\bstd::shuffle\b|\brandom_shuffle\b", "shuffle", "implementation-defined order"),
    (r"\bsystem_clock\b|\bsteady_clock\b|\bhigh_resolution_clock\b", "clock",
     "use virtual time (SimTime)"),
    (r"(?<![\w.>:])(std::)?time\s*\(\s*(nullptr|NULL|0|&)", "time(", "use virtual time"),
    (r"(?<![\w.>:])(std::)?clock\s*\(\s*\)", "clock(", "use virtual time"),
    (r"\bgettimeofday\b|\bclock_gettime\b", "wall clock", "use virtual time"),
    (r"\bstd::thread\b|\bstd::jthread\b|#\s*include\s*<thread>|\bpthread_", "thread",
     "one simulation is single-threaded"),
    (r"\bstd::async\b|#\s*include\s*<future>", "async", "one simulation is single-threaded"),
    (r"\bstd::mutex\b|#\s*include\s*<mutex>", "mutex", "one simulation is single-threaded"),
    (r"\bstd::atomic\b|#\s*include\s*<atomic>", "atomic", "one simulation is single-threaded"),
    (r"\bgetenv\s*\(|\bsecure_getenv\b", "getenv", "behaviour must come from the scenario"),
    (r"\bstd::hash\s*<", "std::hash", "not stable across libraries; use sim::Hasher"),
]
UNORDERED = re.compile(r"\bunordered_(map|set|multimap|multiset)\b")
LOOKUP_ONLY = "lint: lookup-only"
SIM_INCLUDES_MODEL = re.compile(r'#\s*include\s*"(model|checker)/')
COMPILED = [(re.compile(p), what, why) for p, what, why in BANNED]


def strip_code(line, in_block):
    """Removes comments and string/char literals; returns (code, still_in_block_comment)."""
    out = []
    i = 0
    n = len(line)
    while i < n:
        if in_block:
            end = line.find("*/", i)
            if end < 0:
                return "".join(out), True
            i = end + 2
            in_block = False
            continue
        c = line[i]
        if line.startswith("//", i):
            break
        if line.startswith("/*", i):
            in_block = True
            i += 2
            continue
        if c in "\"'":
            quote = c
            i += 1
            while i < n and line[i] != quote:
                i += 2 if line[i] == "\\" else 1
            i += 1
            out.append(quote + quote)
            continue
        out.append(c)
        i += 1
    return "".join(out), in_block


def lint_file(path, display, in_sim):
    findings = []
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.readlines()
    in_block = False
    for number, raw in enumerate(lines, start=1):
        if in_sim and SIM_INCLUDES_MODEL.search(raw):
            findings.append(f"{display}:{number}: banned include of model/ or checker/ from sim/: "
                            "sim/ knows nothing of the model (tools -> checker -> model -> sim)")
        code, in_block = strip_code(raw, in_block)
        if raw.lstrip().startswith("#") and "include" in raw:
            code = raw  # include lines: the <header> is the banned part
        for regex, what, why in COMPILED:
            if regex.search(code):
                findings.append(f"{display}:{number}: banned {what}: {why}")
        if UNORDERED.search(code) and LOOKUP_ONLY not in raw:
            findings.append(f"{display}:{number}: banned unordered container: iteration order "
                            f"is unspecified; use std::map or mark the line '{LOOKUP_ONLY}'")
    return findings


def sources_under(root, sub):
    base = os.path.join(root, sub)
    result = []
    for directory, dirs, files in os.walk(base):
        dirs.sort()
        for name in sorted(files):
            if name.endswith((".h", ".cc", ".hpp", ".cpp")):
                result.append(os.path.join(directory, name))
    return result


def main(argv):
    if len(argv) >= 2 and argv[1] == "--expect-failure":
        targets = [a.rsplit(":", 1) for a in argv[2:]]
        if not targets or any(len(t) != 2 or not t[1].isdigit() for t in targets):
            print("lint_determinism: --expect-failure needs FILE:LINE arguments",
                  file=sys.stderr)
            return 64
        ok = True
        for path, line in targets:
            findings = lint_file(path, path, in_sim=True)
            for finding in findings:
                print(finding)
            lines = {f.split(":")[1] for f in findings}
            if lines != {line}:
                print(f"{path}: expected findings at line {line} only, got lines "
                      f"{sorted(lines) or 'none'}")
                ok = False
        return 0 if ok else 1
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 64
    root = argv[1]
    findings = []
    for sub in ("sim", "model", "checker", os.path.join("tools", "demo")):
        for path in sources_under(root, sub):
            findings += lint_file(path, os.path.relpath(path, root), in_sim=(sub == "sim"))
    for line in findings:
        print(line)
    if findings:
        print(f"lint_determinism: {len(findings)} finding(s)")
        return 1
    print("lint_determinism: clean")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
