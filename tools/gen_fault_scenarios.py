#!/usr/bin/env python3
"""Writes N generated scenarios that set every fault key, for the reliability gate of issue 54.

Each scenario draws (from --seed, Python's own PRNG: this is a tool, not the simulator) a table
of 2 to 4 ranges on `a`, a cluster of 2 to 4 datanodes and 1 or 2 frontends, the background
open and checkpoint settings, none, one split or one merge at a random time, a workload, and a
value for every key of `faults:` that a scenario may set (drop, delay, delay_ms_max,
latency_ms, reset, pause, pause_ms_max, lease_gap, lease_gap_ms_max, leader_start_ms_max,
replay_fail, compact, gc, migrate, checkpoint_race, crash, restart_after_ms, swarm and one
crash_sites entry; `duplicate` is refused by design). The expectation is `pass` under both
profiles: the gate looks for internal errors (exit 70, outcome internal-error), not verdicts.

  python3 tools/gen_fault_scenarios.py 1000 /tmp/gen --seed 0 --binary build/repartsim
  build/repartsim sweep /tmp/gen --profile reference --seeds 0..0 --json ref.json
  build/repartsim sweep /tmp/gen --profile greptime --seeds 0..0 --json gt.json
"""
import argparse
import os
import random
import subprocess


def ratio(rng, denominators):
    return '"1/%d"' % rng.choice(denominators)


def table_and_ddl(rng):
    bounds = sorted(rng.sample(range(5, 40, 5), rng.randint(1, 3)))
    ranges = ["a < %d" % bounds[0]]
    for low, high in zip(bounds, bounds[1:]):
        ranges.append("a >= %d AND a < %d" % (low, high))
    ranges.append("a >= %d" % bounds[-1])
    table = ("CREATE TABLE cpu (host STRING, ts TIMESTAMP TIME INDEX, v BIGINT, a INT, "
             "PRIMARY KEY (host, a)) PARTITION ON COLUMNS (a) (%s)" % ", ".join(ranges))
    kind = rng.choice(["none", "split", "merge"] if len(ranges) > 1 else ["none", "split"])
    ddl = None
    if kind == "split":
        target = ranges[0]
        mid = bounds[0] // 2
        ddl = ("ALTER TABLE cpu SPLIT PARTITION (%s) INTO (a < %d, a >= %d AND a < %d)" %
               (target, mid, mid, bounds[0]))
    elif kind == "merge":
        ddl = "ALTER TABLE cpu MERGE PARTITION (%s, %s)" % (ranges[0], ranges[1])
    return table, ddl


def scenario(rng, index, sites):
    table, ddl = table_and_ddl(rng)
    datanodes = rng.randint(2, 4)
    lines = [
        "name: gen-faults-%04d" % index,
        "cluster: {datanodes: %d, frontends: %d, checkpoint_distance: %d, gc_lingering_ms: %d, "
        "init_regions_in_background: %s, region_open_ms: %d}" %
        (datanodes, rng.randint(1, 2), rng.randint(1, 5), rng.choice([0, 500, 2000]),
         rng.choice(["true", "false"]), rng.choice([1, 50, 500])),
        'table: "%s"' % table,
        "setup:",
        "  - sql: \"INSERT INTO cpu VALUES ('h0', 1, 1, 3), ('h1', 2, 2, 7)\"",
        "  - flush: all",
    ]
    if ddl:
        lines += ["steps:", "  - at_ms: %d" % rng.randint(2000, 10000), '    sql: "%s"' % ddl]
    lines += [
        "workload:",
        "  writers: 1",
        "  readers: 1",
        "  write_interval_ms: %d" % rng.choice([200, 300, 500]),
        "  read_interval_ms: %d" % rng.choice([400, 600, 1000]),
        "  columns:",
        "    a: {min: 0, max: 44}",
        "    host: {values: [h0, h1, h2, h3]}",
        "    ts: {min: 0, max: 50}",
        "  queries: [all, count, point, range]",
        "faults:",
        "  drop: %s" % ratio(rng, [20, 50, 100]),
        "  delay: %s" % ratio(rng, [10, 20, 50]),
        "  delay_ms_max: %d" % rng.choice([500, 3000, 10000]),
        "  latency_ms: %d" % rng.choice([0, 1, 5]),
        "  reset: %s" % ratio(rng, [50, 100, 200]),
        "  pause: %s" % ratio(rng, [10, 20, 50]),
        "  pause_ms_max: %d" % rng.choice([500, 3000]),
        "  lease_gap: %s" % ratio(rng, [5, 10, 20]),
        "  lease_gap_ms_max: %d" % rng.choice([100, 300, 3000]),
        "  leader_start_ms_max: %d" % rng.choice([0, 2000]),
        "  replay_fail: %s" % ratio(rng, [2, 4, 10]),
        "  compact: %s" % ratio(rng, [2, 3]),
        "  gc: %s" % ratio(rng, [2, 3, 5]),
        "  migrate: %s" % ratio(rng, [4, 6, 10]),
        "  checkpoint_race: %s" % ratio(rng, [2, 3]),
        "  crash: %s" % ratio(rng, [200, 400, 1000]),
        "  restart_after_ms: %d" % rng.choice([500, 2000, 5000]),
        "  swarm: %s" % rng.choice(["true", "false"]),
        "  crash_sites: {%s: %s}" % (rng.choice(sites), ratio(rng, [5, 20, 100])),
        "limits: {time_ms_max: %d, liveness_ms: 100000}" % rng.choice([14000, 18000]),
        "expect: {reference: pass, greptime: pass}",
    ]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", type=int)
    parser.add_argument("out_dir")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--binary", default="build/repartsim",
                        help="repartsim, for --list-crash-sites")
    args = parser.parse_args()
    sites = subprocess.run([args.binary, "run", "--list-crash-sites"], check=True,
                           capture_output=True, text=True).stdout.split()
    rng = random.Random(args.seed)
    os.makedirs(args.out_dir, exist_ok=True)
    for i in range(args.count):
        with open(os.path.join(args.out_dir, "gen_%04d.yaml" % i), "w") as out:
            out.write(scenario(rng, i, sites))


if __name__ == "__main__":
    main()
