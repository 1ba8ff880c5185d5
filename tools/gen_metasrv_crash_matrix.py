#!/usr/bin/env python3
"""Writes scenarios/crash/metasrv_after_state/*.yaml: one scenario per procedure state a split
passes, each crashing the metasrv right after that state has passed (`after:` steps) and
restarting it 1 s later. The states come from the procedures' kStateNames tables (the C++
headers), the expectations from EXPECT below; re-run this script after editing either, and
commit the generated files. `--check` writes nothing and exits 1 iff a generated file is
missing or differs (a CTest test runs it)."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "scenarios", "crash", "metasrv_after_state")


def state_names(header):
    """The kStateNames table of a procedure header, in State order (the one exported list)."""
    with open(os.path.join(ROOT, header)) as f:
        text = f.read()
    table = re.search(r"kStateNames\s*=\s*\{([^}]*)\}", text)
    if table is None:
        raise SystemExit(f"{header}: no kStateNames table")
    return re.findall(r'"([^"]+)"', table.group(1))


PARENT = state_names("model/repartition/repartition_procedure.h")
GROUP = state_names("model/repartition/group/group_procedure.h")
# States a split of a partitioned table never passes: UpdatePartitionMetadata runs only for an
# unpartitioned source or an ON COLUMNS change; SyncRegion only for metric-engine tables.
SKIPPED = {"Repartition.UpdatePartitionMetadata", "RepartitionGroup.SyncRegion"}
# The order a split passes them: the parent up to Dispatch, the group, then the parent's rest.
_DISPATCH = PARENT.index("Dispatch") + 1
STATES = [s for s in (["Repartition." + p for p in PARENT[:_DISPATCH]] +
                      ["RepartitionGroup." + g for g in GROUP] +
                      ["Repartition." + p for p in PARENT[_DISPATCH:]])
          if s not in SKIPPED]

# greptime expectation per state, with the reason; absent: pass. The reference passes all.
P2 = ("{violation: INV-ACK, tolerate: [INV-LIVE, INV-META, INV-NOOMIT]}",
      "In greptime the sources' datanodes have already applied their staged manifests, but the\n"
      "  recovered parent re-dispatches the group from scratch: the routed source expressions no\n"
      "  longer match (PartitionExprMismatch), the group fails, and the rollback restores the\n"
      "  route only, so metadata and datanodes disagree: rows vanish (INV-ACK), writes are\n"
      "  rejected for good (INV-LIVE), routes disagree with regions (INV-META) and queries miss\n"
      "  the vanished rows (INV-NOOMIT), P2. The\n"
      "  reference profile resumes applied groups (idempotent-redispatch,\n"
      "  roll-forward-after-commit).")
EXPECT = {
    "RepartitionGroup.ApplyStagingManifest": P2,
    "RepartitionGroup.ExitStaging": P2,
    "RepartitionGroup.RepartitionEnd": P2,
}

# Per-rule expectations (expect.with_rules): the switches each scenario catches when turned
# off alone (found with `repartsim mutants --every-finding`); absent: none.
WITH_RULES = {
    "group_apply_staging": [
        "{rules: {fence-allocated-regions: off}, violation: INV-NOOMIT}",
        "{rules: {fenced-reads: off}, violation: READ-ANOMALY}",
        "{rules: {idempotent-redispatch: off}, violation: INV-LIVE}",
    ],
    "group_apply_staging_manifest": [
        "{rules: {idempotent-redispatch: off}, violation: INV-LIVE}",
    ],
    "group_enter_staging_region": [
        "{rules: {idempotent-redispatch: off}, violation: INV-LIVE}",
    ],
    "group_exit_staging": [
        "{rules: {idempotent-redispatch: off}, violation: INV-LIVE}",
    ],
    "group_remap_manifest": [
        "{rules: {idempotent-redispatch: off}, violation: INV-LIVE}",
    ],
    "group_repartition_end": [
        "{rules: {idempotent-redispatch: off}, violation: INV-LIVE}",
    ],
    "group_repartition_start": [
        "{rules: {fence-allocated-regions: off}, violation: INV-NOOMIT}",
        "{rules: {fenced-reads: off}, violation: READ-ANOMALY}",
    ],
    "parent_allocate_region_build": [
        "{rules: {fence-allocated-regions: off}, violation: INV-NOOMIT}",
        "{rules: {fenced-reads: off}, violation: READ-ANOMALY}",
    ],
    "parent_allocate_region_execute": [
        "{rules: {fence-allocated-regions: off}, violation: INV-NOOMIT}",
        "{rules: {fenced-reads: off}, violation: READ-ANOMALY}",
    ],
    "parent_dispatch": [
        "{rules: {fence-allocated-regions: off}, violation: INV-NOOMIT}",
        "{rules: {fenced-reads: off}, violation: READ-ANOMALY}",
    ],
}

# Switches every scenario but the first (a crash after RepartitionStart, before anything is
# staged) catches: without them the recovered split's staged or adopted files lose or
# duplicate rows (found on all ten seeds with `repartsim mutants --every-finding`).
AFTER_START = [
    "{rules: {filter-foreign-files: off}, violation: INV-ACK,\n"
    "       tolerate: [INV-NODUP, INV-NOOMIT, INV-OWN]}",
    "{rules: {exit-staging-applies-edits: off}, violation: INV-ACK, tolerate: [INV-NOOMIT]}",
]

TEMPLATE = """# Generated by tools/gen_metasrv_crash_matrix.py: do not edit by hand.
# The metasrv crashes right after a split passes {state}.
name: {name}
description: >
  A split of a < 10 starts at 4 s with writers and readers running. The metasrv crashes as
  soon as a procedure has passed {state} and restarts 1 s later; recovery resumes
  the root procedure from its last persisted record (group procedures are not recovered on
  their own: the parent re-dispatches them).{reason}
tags: [crash, metasrv, split, procedure, after_state]
profile: reference
cluster: {{datanodes: 3, frontends: 2}}
table: |
  CREATE TABLE cpu (host STRING, ts TIMESTAMP TIME INDEX, v BIGINT, a INT,
                    PRIMARY KEY (host, a))
  PARTITION ON COLUMNS (a) (a < 10, a >= 10 AND a < 20, a >= 20)
setup:
  - sql: "INSERT INTO cpu VALUES ('h0', 1, 1, 3), ('h1', 2, 2, 7), ('h2', 3, 3, 15)"
  - flush: all
steps:
  - at_ms: 4000
    sql: "ALTER TABLE cpu SPLIT PARTITION (a < 10) INTO (a < 5, a >= 5 AND a < 10)"
  - after: {state}
    crash: metasrv
  - after: {state}
    delay_ms: 1000
    restart: metasrv
workload:
  writers: 1
  readers: 1
  write_interval_ms: 250
  read_interval_ms: 500
  columns:
    a: {{min: 0, max: 29}}
    host: {{values: [h0, h1, h2, h3]}}
    ts: {{min: 0, max: 50}}
  queries: [all, count, point, range]
limits: {{time_ms_max: 15000, liveness_ms: 40000}}
seeds: "0..9"
expect:
  reference: pass
  greptime: {greptime}
"""


def generated():
    """File name -> text of every generated scenario."""
    out = {}
    for state in STATES:
        stem = state.replace("RepartitionGroup.", "group_").replace("Repartition.", "parent_")
        stem = "".join("_" + c.lower() if c.isupper() else c for c in stem.replace(".", "_"))
        stem = stem.replace("__", "_").strip("_")
        name = "metasrv-crash-after-" + stem.replace("_", "-")
        greptime, reason = EXPECT.get(state, ("pass", ""))
        text = TEMPLATE.format(state=state, name=name, greptime=greptime,
                               reason=("\n  " + reason) if reason else "")
        entries = WITH_RULES.get(stem, []) + (AFTER_START if stem != "parent_repartition_start" else [])
        if entries:
            text += "  with_rules:  # each switch turned off alone that this scenario catches\n"
            text += "".join("    - " + entry + "\n" for entry in entries)
        out[stem + ".yaml"] = text
    return out


def main(argv):
    files = generated()
    if argv[1:] == ["--check"]:
        stale = []
        for name, text in sorted(files.items()):
            path = os.path.join(OUT, name)
            if not os.path.exists(path) or open(path).read() != text:
                stale.append(os.path.relpath(path, ROOT))
        for path in stale:
            print(f"{path}: stale; re-run tools/gen_metasrv_crash_matrix.py")
        return 1 if stale else 0
    os.makedirs(OUT, exist_ok=True)
    for name, text in files.items():
        with open(os.path.join(OUT, name), "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
