#!/usr/bin/env python3
"""Goal: the HTML timeline works in a real browser (issue 16): the timeline of a failing bundled
greptime scenario loads in Debian's headless chromium with no console error and no network
request, shows every node lane, names GreptimeDB's procedure states on its bars, puts the
violation marker at the violation's step, and clicking a lost row highlights the write that
acknowledged it.
Method: `repartsim run SCENARIO --html` (plus --json and --trace for the expected values, read
independently of the page), then `chromium --headless --dump-dom FILE#selftest`: the page's
self-test measures its own drawing, clicks the first lost row and writes what it sees into
<pre id="selftest">; this script compares that with the run's JSON report and trace, reads
chromium's console log (--enable-logging=stderr) for errors, and checks that the file holds no
http(s):// address. Without chromium the test FAILS, unless REPARTSIM_SKIP_BROWSER=1 says to
skip it (exit 77, a CTest skip).
--stories: the pages of a stale-frontend split and of a merge failure (greptime) show every
story of their run above the drawing (screenshots in --screenshot-dir).
Also: --screenshot PNG writes a screenshot of the page (README); --measure PAGE prints a
page's load time and size; --size-check SCENARIO [--seed N] requires a run of at least
10,000 trace lines to give a page under 5 MB whose script is done within 2 s
(docs/timeline.md).
"""
import argparse
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SKIP = 77
GREPTIME_STATES = ["Dispatch", "EnterStagingRegion", "RemapManifest", "ApplyStagingManifest",
                   "DeallocateRegion"]


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def find_chromium():
    for name in (os.environ.get("REPARTSIM_CHROMIUM"), "chromium", "chromium-browser"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def require_chromium():
    """chromium's path; None (print SKIP) when it is missing and REPARTSIM_SKIP_BROWSER=1 asks
    to skip; else the test fails."""
    chromium = find_chromium()
    if chromium is None:
        if os.environ.get("REPARTSIM_SKIP_BROWSER") == "1":
            print("SKIP: chromium is not installed and REPARTSIM_SKIP_BROWSER=1")
            return None
        fail("chromium is not installed: run `bash tools/setup.sh` (Debian package chromium), or "
             "set REPARTSIM_SKIP_BROWSER=1 to skip this test explicitly")
    return chromium


def chromium_args(chromium, profile_dir):
    return [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--disable-extensions", "--disable-sync", "--disable-background-networking",
            "--disable-component-update", "--disable-default-apps", "--mute-audio",
            "--enable-logging=stderr", "--v=0", "--user-data-dir=" + profile_dir,
            "--window-size=1600,1000"]


def dump_dom(chromium, page, profile_dir):
    start = time.monotonic()
    done = subprocess.run(chromium_args(chromium, profile_dir) +
                          ["--dump-dom", "file://" + page + "#selftest"],
                          capture_output=True, text=True, timeout=120)
    wall_s = time.monotonic() - start
    if done.returncode != 0:
        fail("chromium exited %d:\n%s" % (done.returncode, done.stderr[-3000:]))
    match = re.search(r'<pre id="selftest">(.*?)</pre>', done.stdout, re.S)
    if not match:
        fail("the page's self-test wrote no result (script error?); chromium said:\n" +
             done.stderr[-3000:])
    return json.loads(html.unescape(match.group(1))), done.stdout, done.stderr, wall_s


def console_errors(stderr):
    # chromium logs console messages as `...:INFO:CONSOLE(12)] "text", source: file://...`
    # and script errors as "Uncaught ..."; a blocked fetch logs a CSP violation.
    bad = []
    for line in stderr.splitlines():
        if "CONSOLE" in line or "Uncaught" in line or "Content Security Policy" in line:
            bad.append(line)
    return bad


def run_repartsim(binary, scenario, out_dir, extra=()):
    page = os.path.join(out_dir, "timeline.html")
    report = os.path.join(out_dir, "run.json")
    trace = os.path.join(out_dir, "run.trace")
    done = subprocess.run([binary, "run", scenario, "--seed", "0", "--html", page, "--json",
                           report, "--trace", trace] + list(extra), capture_output=True,
                          text=True)
    if done.returncode not in (1, 2):
        fail("repartsim run %s exited %d (a failing scenario was expected):\n%s" %
             (scenario, done.returncode, done.stdout + done.stderr))
    with open(report) as f:
        report_json = json.load(f)
    with open(trace) as f:
        trace_lines = f.read().splitlines()
    return page, report_json, trace_lines


def expected_lanes(scenario):
    with open(scenario) as f:
        text = f.read()
    d = re.search(r"datanodes:\s*(\d+)", text)
    fe = re.search(r"frontends:\s*(\d+)", text)
    datanodes, frontends = int(d.group(1)) if d else 3, int(fe.group(1)) if fe else 2
    return (["metasrv"] + ["dn%d" % i for i in range(1, datanodes + 1)] +
            ["fe%d" % i for i in range(1, frontends + 1)] + ["client"])


def row_tuple(row):
    # "missing (host='h0', ts=2, v=92, a=5)" -> "('h0', 2, 92, 5)", as `op insert` prints it
    inner = row[row.index("(") + 1:row.rindex(")")]
    parts = re.split(r",(?=\s*\w+=)", inner)
    return "(" + ", ".join(re.sub(r"^\s*\w+=", "", p) for p in parts) + ")"


def check(args):
    scenario = os.path.join(args.source_dir, args.scenario)
    chromium = require_chromium()
    if chromium is None:
        return SKIP
    with tempfile.TemporaryDirectory(prefix="repartsim-browser-") as tmp:
        page, report, trace = run_repartsim(args.binary, scenario, tmp)
        with open(page) as f:
            text = f.read()
        for scheme in ("http://", "https://"):
            if scheme in text:
                fail("the page names %s (it must fetch nothing)" % scheme)
        result, _, stderr, wall_s = dump_dom(chromium, page, os.path.join(tmp, "profile"))
        errors = console_errors(stderr) + result["errors"]
        if errors:
            fail("console errors:\n" + "\n".join(errors))
        if result["resources"]:
            fail("the page requested: %s" % result["resources"])
        lanes = expected_lanes(scenario)
        if result["lanes"] != lanes:
            fail("lanes %s, expected %s" % (result["lanes"], lanes))
        traced_states = sorted({m.group(1) for line in trace
                                for m in [re.search(r" ms\.state .* to=(\S+) ", line)] if m})
        if sorted(result["states"]) != traced_states:
            fail("bar states %s, the trace's %s" % (sorted(result["states"]), traced_states))
        missing = [s for s in GREPTIME_STATES if s not in result["states"]]
        if missing or not any(s.startswith("AllocateRegion") for s in result["states"]):
            fail("no bar names GreptimeDB's states %s (bars: %s)" % (missing, result["states"]))
        steps = [v["step"] for v in report["violations"]]
        if [v["step"] for v in result["violations"]] != steps or not steps:
            fail("violation markers at %s, the report's steps %s" % (result["violations"], steps))
        for v in result["violations"]:
            if abs(v["x"] - v["expect_x"]) > 1.5:
                fail("violation marker drawn at x=%s, its step is at x=%s" %
                     (v["x"], v["expect_x"]))
        # One label per violation, in step order; at the fitted zoom the first one shows (the
        # page hides a label that would overlap the one before it).
        labels = [(v["step"], v["text"]) for v in result["vlabels"]]
        expected = sorted(((v["step"], v["invariant"]) for v in report["violations"]),
                          key=lambda sv: sv[0])
        if labels != expected:
            fail("violation labels %s, the report's violations %s" % (labels, expected))
        if not result["vlabels"][0]["shown"]:
            fail("the leftmost violation label (%s) is hidden at the fitted zoom" % labels[0][1])
        # Zoomed in on steps 0..40 the axis numbers the steps: evenly, 1, 2 or 5 times a power
        # of ten apart, from the first.
        numbers = [int(t[1:]) for t in result["step_labels"]]
        gaps = {b - a for a, b in zip(numbers, numbers[1:])}
        if (len(numbers) < 5 or len(gaps) != 1 or numbers[0] != 0 or
                str(gaps.copy().pop()).strip("0") not in ("1", "2", "5")):
            fail("step labels zoomed in on steps 0..40: %s" % result["step_labels"])
        click = result["click"]
        if not click:
            fail("no lost row with an acknowledging write in the page")
        tup = row_tuple(click["row"])
        writes = {m.group(1) for line in trace if " op insert " in line and tup in line
                  for m in [re.search(r" id=(\d+) ", line)]}
        acks = [line for line in trace for m in [re.search(r" fe\.write_done id=(\d+) acked", line)]
                if m and m.group(1) in writes]
        highlighted = [line for group in click["highlighted_ack"] for line in group.split("\n")]
        if not acks or sorted(set(highlighted)) != sorted(acks):
            fail("clicking %s highlighted %s; the acknowledging writes are %s" %
                 (click["row"], highlighted, acks))
        invariants = sorted({v["invariant"] for v in report["violations"]})
        print("ok: %s: %d lanes, %d states, violations %s at steps %s; clicking %s highlights %s; "
              "chromium %.2f s, page script done at %d ms, %d bytes" %
              (args.scenario, len(lanes), len(result["states"]), invariants, steps, click["row"],
               acks, wall_s, result["load_ms"], len(text)))
        if args.screenshot:
            shot = subprocess.run(chromium_args(chromium, os.path.join(tmp, "profile2")) +
                                  ["--screenshot=" + os.path.abspath(args.screenshot),
                                   "file://" + page + "#select"],
                                  capture_output=True, text=True, timeout=120)
            if shot.returncode != 0 or not os.path.exists(args.screenshot):
                fail("screenshot failed:\n" + shot.stderr[-2000:])
            print("screenshot: " + args.screenshot)
    return 0


# The failures whose stories the page must tell: a stale frontend after a split, and a merge.
STORY_SCENARIOS = ["scenarios/stale_cache/stale_frontend_during_split.yaml",
                   "scenarios/merge/dropped_region_recreated_by_late_create.yaml"]


def stories(args):
    """Each STORY_SCENARIOS page under greptime, seed 0, shows every story of its run (the
    cause and each detail line, as `run --json` reports them) above the drawing; a screenshot
    of each goes to --screenshot-dir (default: a temporary directory)."""
    chromium = require_chromium()
    if chromium is None:
        return SKIP
    with tempfile.TemporaryDirectory(prefix="repartsim-stories-") as tmp:
        shots = args.screenshot_dir or tmp
        for index, name in enumerate(STORY_SCENARIOS):
            out = os.path.join(tmp, str(index))
            os.makedirs(out)
            page, report, _ = run_repartsim(args.binary, os.path.join(args.source_dir, name), out,
                                            ["--profile", "greptime"])
            if not report.get("stories"):
                fail("%s: the run reported no story" % name)
            _, dom, stderr, _ = dump_dom(chromium, page, os.path.join(out, "profile"))
            errors = console_errors(stderr)
            if errors:
                fail("%s: console errors:\n%s" % (name, "\n".join(errors)))
            section = re.search(r'<section id="stories">(.*?)</section>', dom, re.S)
            if not section:
                fail("%s: the page has no stories section" % name)
            shown = html.unescape(re.sub(r"<[^>]+>", "", section.group(1)))
            for story in report["stories"]:
                for text in [story["cause"]] + story["details"]:
                    if text not in shown:
                        fail("%s: the page does not show %r" % (name, text))
            shot = os.path.join(shots, "stories-%d.png" % index)
            done = subprocess.run(chromium_args(chromium, os.path.join(out, "profile2")) +
                                  ["--screenshot=" + shot, "file://" + page],
                                  capture_output=True, text=True, timeout=120)
            if done.returncode != 0 or not os.path.getsize(shot):
                fail("%s: screenshot failed:\n%s" % (name, done.stderr[-2000:]))
            print("ok: %s: %d stories shown, the first: %s (screenshot %s, %d bytes)" %
                  (name, len(report["stories"]), report["stories"][0]["cause"], shot,
                   os.path.getsize(shot)))
    return 0


def measure(args):
    """Load time and size of an existing page (--measure PAGE)."""
    chromium = find_chromium()
    if chromium is None:
        fail("chromium is not installed")
    page = os.path.abspath(args.measure)
    with tempfile.TemporaryDirectory(prefix="repartsim-browser-") as tmp:
        result, _, stderr, wall_s = dump_dom(chromium, page, os.path.join(tmp, "profile"))
        errors = console_errors(stderr) + result["errors"]
        print("page %s: %d bytes, chromium run %.2f s (start, load, dump, exit), page script done "
              "at %d ms after navigation start, console errors %d, requests %d" %
              (page, os.path.getsize(page), wall_s, result["load_ms"], len(errors),
               len(result["resources"])))
    return 0


def size_check(args):
    """--size-check: the timeline of a run of at least 10,000 trace lines stays under 5 MB, and
    its script is done (drawn, fitted, laid out, self-checked) within 2 s of navigation start."""
    chromium = find_chromium()
    if chromium is None:
        if os.environ.get("REPARTSIM_SKIP_BROWSER") == "1":
            print("SKIP: chromium is not installed and REPARTSIM_SKIP_BROWSER=1")
            return SKIP
        fail("chromium is not installed: run `bash tools/setup.sh` (Debian package chromium)")
    scenario = os.path.join(args.source_dir, args.size_check)
    with tempfile.TemporaryDirectory(prefix="repartsim-browser-") as tmp:
        page = os.path.join(tmp, "big.html")
        trace = os.path.join(tmp, "big.trace")
        done = subprocess.run([args.binary, "run", scenario, "--seed", str(args.seed), "--html",
                               page, "--trace", trace, "--choices",
                               os.path.join(tmp, "big.choices")], capture_output=True, text=True)
        if done.returncode not in (0, 1, 2) or not os.path.exists(page):
            fail("repartsim run exited %d:\n%s" % (done.returncode, done.stdout + done.stderr))
        with open(trace) as f:
            lines = sum(1 for _ in f)
        size = os.path.getsize(page)
        result, _, stderr, wall_s = dump_dom(chromium, page, os.path.join(tmp, "profile"))
        errors = console_errors(stderr) + result["errors"]
        if lines < 10000:
            fail("the run traced %d lines, fewer than 10,000" % lines)
        if size >= 5 * 1000 * 1000:
            fail("the page is %d bytes, not under 5 MB" % size)
        if errors or result["resources"]:
            fail("console errors %s, requests %s" % (errors, result["resources"]))
        if result["load_ms"] >= 2000:
            fail("the page's script was done %d ms after navigation start, not under 2 s" %
                 result["load_ms"])
        print("ok: %d trace lines, %d bytes, page script done at %d ms, chromium run %.2f s" %
              (lines, size, result["load_ms"], wall_s))
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--source-dir", default=".")
    parser.add_argument("--scenario", default="scenarios/greptime/lease_race_new_region_ack.yaml")
    parser.add_argument("--screenshot")
    parser.add_argument("--measure")
    parser.add_argument("--size-check")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stories", action="store_true")
    parser.add_argument("--screenshot-dir")
    args = parser.parse_args()
    if args.measure:
        return measure(args)
    if args.stories:
        return stories(args)
    return size_check(args) if args.size_check else check(args)


if __name__ == "__main__":
    sys.exit(main())
