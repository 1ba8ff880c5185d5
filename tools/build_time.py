#!/usr/bin/env python3
"""Where a build's time went, from ninja's log (BUILD/.ninja_log).

Prints the sum of every job's duration (job-seconds: what the build costs in CPU, whatever the
number of cores), the share of each part of the tree, and the slowest objects. Only the newest
entry of each output counts, so after an incremental build it describes the whole tree as last
built; run it on a fresh build directory for the cost of a clean build.
With --fanout, prints instead how many objects of the last build include each given header (from
ninja's dependency log): the objects that touching it rebuilds.
Usage: tools/build_time.py BUILD_DIR [--top N] [--fanout HEADER...]
"""
import argparse
import collections
import os
import subprocess
import sys


def Area(output):
    """The part of the tree an output belongs to, e.g. 'model', 'tests', 'test links'."""
    if output.endswith((".gch", ".pch")):
        return "precompiled headers"
    if not output.endswith(".o"):
        if output.startswith("tests/") or os.path.basename(output).startswith("test_"):
            return "test links"
        return "links and archives"
    for part in ("bench", "fuzz", "tests", "tools", "checker", "model", "sim"):
        if "/" + part + "/" in "/" + output or output.startswith(part + "/"):
            return part
    return "other"


def Fanout(build_dir, headers):
    """Prints, per header (a path relative to the source root), the objects that depend on it."""
    deps = subprocess.run(["ninja", "-C", build_dir, "-t", "deps"], check=True,
                          capture_output=True, text=True).stdout
    # Only objects the default build (`all`) compiles: the log keeps entries of outputs since
    # removed, and of on-demand targets (benchmarks, fuzz executables) once built.
    commands = subprocess.run(["ninja", "-C", build_dir, "-t", "commands", "all"], check=True,
                              capture_output=True, text=True).stdout
    current = set()
    for command in commands.splitlines():
        words = command.split()
        for i, word in enumerate(words[:-1]):
            if word == "-o":
                current.add(words[i + 1])
    wanted = {os.path.normpath(h): 0 for h in headers}
    output = None
    for line in deps.splitlines():
        if line and not line.startswith(" "):
            output = line.split(": #deps")[0]
            continue
        if not line.startswith("    ") or output not in current:
            continue
        path = os.path.normpath(line.strip())
        for header in wanted:
            if path == header or path.endswith("/" + header):
                wanted[header] += 1
    for header, count in wanted.items():
        print(f"{count:5d} objects include {header}")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir")
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--fanout", nargs="+", metavar="HEADER")
    args = parser.parse_args()
    if args.fanout:
        return Fanout(args.build_dir, args.fanout)
    path = os.path.join(args.build_dir, ".ninja_log")
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError as error:
        print(f"{path}:1:1: error: {error.strerror}", file=sys.stderr)
        return 64
    jobs = {}
    for line in lines:
        if line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 5:
            continue
        start_ms, end_ms, output = int(fields[0]), int(fields[1]), fields[3]
        jobs[output] = (end_ms - start_ms) / 1000.0  # the newest entry of an output wins
    by_area = collections.Counter()
    count = collections.Counter()
    for output, seconds in jobs.items():
        by_area[Area(output)] += seconds
        count[Area(output)] += 1
    total = sum(jobs.values())
    print(f"build: {total:.0f} job-seconds over {len(jobs)} outputs")
    for area, seconds in by_area.most_common():
        print(f"  {area:<20} {seconds:7.0f} s  {count[area]:4d} outputs")
    print(f"slowest {args.top}:")
    for output, seconds in sorted(jobs.items(), key=lambda kv: -kv[1])[: args.top]:
        print(f"  {seconds:6.1f} s  {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
