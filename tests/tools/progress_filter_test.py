#!/usr/bin/env python3
"""Goal: tools/test.sh's output filter (tools/progress_filter.py) shows progress with the
elapsed time and the time left, a summary naming the failed tests, the log's tail when the step
failed, and keeps every line in the log (issue 53: tools/test.sh printed 2,420 lines of up to
267 columns, every ninja step and every test).
Method: fixed ninja and ctest outputs through the filter with a fixed clock, compared exactly."""
import os
import subprocess
import sys
import tempfile

FILTER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools",
                      "progress_filter.py")


def run(label, text, status, seconds):
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "test.log")
        out = subprocess.run([sys.executable, FILTER, "--label", label, "--log", log, "--status",
                              str(status), "--tty", "no", "--clock", str(seconds)],
                             input=text, capture_output=True, text=True, check=True).stdout
        with open(log, encoding="utf-8") as f:
            kept = f.read()
        return out.replace(log, "LOG"), kept


def expect(got, want):
    if got != want:
        sys.exit("got:\n%s\nwant:\n%s" % (got, want))


def main():
    build = "".join("[%d/20] step %d\n" % (i, i) for i in range(1, 21))
    out, kept = run("build", build, 0, 10)
    expect(kept, build)
    expect(out.splitlines()[0], "[build] 1/20, 0:10 elapsed, about 3:10 left")
    expect(len(out.splitlines()), 11 + 2)  # the first step, each tenth after it; summary, log
    expect(out.splitlines()[-2:], ["[build] done in 0:10: 20/20", "  full log: LOG"])
    tests = ("  1/2 Test  #1: A.x ........   Passed    0.01 sec\n"
             "  2/2 Test  #2: B.y ........***Failed    0.02 sec\n\n"
             "50% tests passed, 1 tests failed out of 2\n")
    out, kept = run("tests", tests, 8, 4)
    expect(kept, tests)
    expect(out, "[tests] 1/2, 0:04 elapsed, about 0:04 left\n"
                "[tests] 2/2, 0:04 elapsed, about 0:00 left\n"
                "[tests] FAILED (exit 8) in 0:04: 2/2\n"
                "  50% tests passed, 1 tests failed out of 2\n"
                "  failed: B.y (Failed)\n"
                "  last 4 lines of the log:\n"
                "      1/2 Test  #1: A.x ........   Passed    0.01 sec\n"
                "      2/2 Test  #2: B.y ........***Failed    0.02 sec\n"
                "    \n"
                "    50% tests passed, 1 tests failed out of 2\n"
                "  full log: LOG\n")
    print("ok")


if __name__ == "__main__":
    main()
