#!/usr/bin/env python3
"""Shows a build's or a test run's progress and summary, and keeps its full output in a log.

Reads a command's output on stdin (ninja's "[N/M] ..." steps or ctest's "N/M Test #..."
lines), appends every line to LOG, and prints instead: a progress line with the elapsed time
and an estimate of the time left (rewritten in place on a terminal, every 10% otherwise), then
a summary: the steps done, or ctest's verdict line and the tests that failed. When the command
failed (its exit code, passed as --status) the last lines of the log are printed too, so a CI
log still shows the error. Used by tools/test.sh.

Usage: CMD 2>&1 | progress_filter.py --label build --log build/test.log [--status-file F]
"""
import argparse
import re
import sys
import time

STEP = re.compile(r"^\[(\d+)/(\d+)\]")  # ninja
TEST = re.compile(r"^\s*(\d+)/(\d+) Test\s+#\d+: (.*?) \.+\**\s*(\w+.*?)\s+[\d.]+ sec")
TAIL_LINES = 60


def clock(seconds):
    seconds = int(seconds)
    return "%d:%02d" % (seconds // 60, seconds % 60)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--label", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--status", type=int, default=None,
                        help="the command's exit code, read from --status-file when absent")
    parser.add_argument("--status-file")
    parser.add_argument("--tty", choices=["auto", "yes", "no"], default="auto")
    parser.add_argument("--clock", type=float, default=None, help="fixed elapsed seconds (tests)")
    args = parser.parse_args()
    tty = sys.stdout.isatty() if args.tty == "auto" else args.tty == "yes"
    start = time.monotonic()
    done = total = 0
    shown_decile = -1
    failed, verdict, tail = [], None, []
    with open(args.log, "a", encoding="utf-8") as log:
        for line in sys.stdin:
            log.write(line)
            text = line.rstrip("\n")
            tail = (tail + [text])[-TAIL_LINES:]
            match = STEP.match(text) or TEST.match(text)
            if match:
                done, total = int(match.group(1)), int(match.group(2))
                if match.re is TEST and not match.group(4).startswith("Passed") \
                        and not match.group(4).startswith("Not Run (Disabled)") \
                        and "Skipped" not in match.group(4):
                    failed.append("%s (%s)" % (match.group(3).split("  #")[0].strip(),
                                               match.group(4)))
            if "tests passed" in text and "tests failed out of" in text:
                verdict = text.strip()
            if not match or total == 0:
                continue
            elapsed = args.clock if args.clock is not None else time.monotonic() - start
            left = elapsed / done * (total - done) if done else 0
            progress = "[%s] %d/%d, %s elapsed, about %s left" % (
                args.label, done, total, clock(elapsed), clock(left))
            if tty:
                sys.stdout.write("\r\033[K" + progress)
                sys.stdout.flush()
            elif done * 10 // total > shown_decile:
                shown_decile = done * 10 // total
                print(progress, flush=True)
    if tty and total:
        sys.stdout.write("\r\033[K")
    status = args.status
    if status is None and args.status_file:
        with open(args.status_file, encoding="utf-8") as f:
            status = int(f.read().strip() or "1")
    elapsed = args.clock if args.clock is not None else time.monotonic() - start
    summary = "[%s] %s in %s" % (args.label, "done" if status == 0 else "FAILED (exit %s)" % status,
                                 clock(elapsed))
    if total:
        summary += ": %d/%d" % (done, total)
    print(summary)
    if verdict:
        print("  " + verdict)
    for name in failed:
        print("  failed: " + name)
    if status != 0:
        print("  last %d lines of the log:" % len(tail))
        for text in tail:
            print("    " + text)
    print("  full log: " + args.log)
    return 0


if __name__ == "__main__":
    sys.exit(main())
