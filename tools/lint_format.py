#!/usr/bin/env python3
"""Format lint: every C++ source of the project is clang-formatted with the repo's .clang-format.

Runs `clang-format --dry-run -Werror` over the .h and .cc files under sim/, model/, checker/,
tools/ and tests/ (fixtures under tests/data/ are skipped: they are inputs, not sources). Each badly
formatted place prints as clang-format's own `file:line:col: error: code should be
clang-formatted` and the exit code is 1.

Usage:
  lint_format.py ROOT                    check the tree; exit 1 on findings, 77 without clang-format
  lint_format.py --expect-failure FILE   exit 0 iff FILE has at least one finding
"""
import os
import shutil
import subprocess
import sys

FOLDERS = ["sim", "model", "checker", "tools", "tests"]
SKIP = [os.path.join("tests", "data")]


def clang_format():
    for name in ["clang-format", "clang-format-14"]:
        path = shutil.which(name)
        if path:
            return path
    return None


def sources(root):
    found = []
    for folder in FOLDERS:
        for directory, subdirs, files in os.walk(os.path.join(root, folder)):
            subdirs.sort()
            rel = os.path.relpath(directory, root)
            if any(rel == skip or rel.startswith(skip + os.sep) for skip in SKIP):
                subdirs[:] = []
                continue
            found.extend(os.path.join(directory, name) for name in sorted(files)
                         if name.endswith((".h", ".cc")))
    return found


def check(tool, files, style_root, quiet=False):
    """Returns the number of files clang-format would change; prints the findings unless quiet."""
    failed = 0
    for start in range(0, len(files), 64):
        batch = files[start:start + 64]
        result = subprocess.run([tool, "--dry-run", "-Werror", "--style=file"] + batch,
                                cwd=style_root, capture_output=True, text=True)
        if result.returncode != 0:
            if not quiet:
                sys.stderr.write(result.stderr)
            failed += len({line.split(":", 1)[0] for line in result.stderr.splitlines()
                           if ": error:" in line})
    return failed


def main(argv):
    tool = clang_format()
    if tool is None:
        print("lint_format: clang-format not found", file=sys.stderr)
        return 77
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if len(argv) == 3 and argv[1] == "--expect-failure":
        failed = check(tool, [argv[2]], root, quiet=True)
        if failed == 0:
            print(f"{argv[2]}: expected a format finding, found none", file=sys.stderr)
            return 1
        return 0
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 64
    files = sources(argv[1])
    failed = check(tool, files, argv[1])
    if failed:
        print(f"lint_format: {failed} of {len(files)} files are not clang-formatted "
              f"(fix with: clang-format -i FILE)", file=sys.stderr)
        return 1
    print(f"lint_format: {len(files)} files clang-formatted")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
