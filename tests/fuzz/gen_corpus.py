#!/usr/bin/env python3
"""Regenerates the committed seed corpora of tests/fuzz/corpus/<target>/.

sql:      every SQL text of the bundled scenarios (table: and sql:), tests/data/**/*.sql, one
          statement of every kind and shape, and inputs at and just past each limit of
          model/sql/sql_limits.h (nesting, AND/OR chains, IN lists) so the fuzzer starts
          next to the depth checks instead of having to grow 10 KB inputs first.
console:  the console scripts of tests/data/console and a few statements of every kind.
scenario: the bundled scenarios, tests/data/scenarios and tests/data/bad_input.
run:      the bundled scenarios.
choices:  the choice files of a few seeds of two scenarios (needs --binary).
merge:    the --json reports of two small sweeps and a sharded pair (needs --binary).
paths:    written by hand, not regenerated here (hostile file names and report numbers).
Usage: tests/fuzz/gen_corpus.py [--binary build/repartsim]
"""
import argparse
import os
import pathlib
import shutil
import subprocess
import tempfile

import yaml  # PyYAML: only to pull SQL strings out of the scenarios

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests/fuzz/corpus"

CREATE = ("CREATE TABLE t (h STRING, ts TIMESTAMP TIME INDEX, a INT, b STRING, "
          "PRIMARY KEY (h)) PARTITION ON COLUMNS (a, b) (a < 10, a >= 10 AND a < 20, a >= 20)")
SHAPES = [
    CREATE,
    "CREATE TABLE IF NOT EXISTS m (host STRING, ts TIMESTAMP(3) TIME INDEX, v DOUBLE NULL, "
    "n INT UNSIGNED NOT NULL DEFAULT 3, PRIMARY KEY (host)) ENGINE = mito "
    "WITH (append_mode = 'true', ttl = '7d')",
    CREATE + "; ALTER TABLE t SPLIT PARTITION (a < 10) INTO (a < 5, a >= 5 AND a < 10)",
    CREATE + "; ALTER TABLE t MERGE PARTITION (a < 10, a >= 10 AND a < 20) WITH (WAIT = false)",
    CREATE + "; ALTER TABLE t REPARTITION (a < 10, a >= 10 AND a < 20) INTO (a < 15, a >= 15 AND a < 20) "
    "WITH (TIMEOUT = '1m30s')",
    CREATE + "; ALTER TABLE t PARTITION ON COLUMNS (b) (b < 'm', b >= 'm')",
    CREATE + "; INSERT INTO t VALUES ('h', 1, 5, 'x'), ('h', 2, -9223372036854775808, NULL)",
    CREATE + "; INSERT INTO t (h, ts, a) VALUES ('it''s', 3, 1e3)",
    CREATE + "; SELECT * FROM t WHERE a > 5 AND b = 'x' ORDER BY a DESC, b",
    CREATE + "; SELECT count(*) FROM t WHERE NOT (a IN (1, 2, NULL) OR a BETWEEN 3 AND 30)",
    CREATE + "; SELECT * FROM t WHERE a NOT BETWEEN 1 AND 2 AND b IS NOT NULL OR 5 < a",
    CREATE + "; SELECT * FROM t WHERE a NOT IN (1, 15, 25) AND a <> b",
    "a >= 10 AND (b < 'x' OR NOT a = 3)",
    "h='x',ts=1,a=-5,b=NULL",
    "1m30s",
    "-- comment\nSELECT * FROM \"t\" WHERE `a` = 1;;",
]

# Runs of the timed driver record no decision, so one file shows every line kind.
HANDMADE_CHOICES = """# repartsim choices
# scenario=scenarios/split/split_with_writers.yaml seed=7 profile=greptime rules=fenced-reads=on,x=off trace_hash=0x00000000000000ff
repartsim-choices 1
choose sched.next 3 2
chance net.drop 1/100 1

# a comment, then more
chance crash.dn1 1/2 0
"""


def limit_inputs():
    out = {}
    for n in (127, 128, 129):
        out[f"nest-paren-{n}"] = "(" * n + "a = 1" + ")" * n
        out[f"nest-not-{n}"] = "NOT " * n + "a = 1"
    out["chain-or-4096"] = "a = 0" + " OR a = 1" * 4096
    out["chain-and-4097"] = "a = 0" + " AND a = 1" * 4097
    out["in-list-2000"] = "a IN (" + ", ".join(str(i) for i in range(2000)) + ")"
    out["select-in-list-1000"] = CREATE + "; SELECT * FROM t WHERE a IN (" + ", ".join(
        str(i * 3) for i in range(1000)) + ")"
    return out


def scenario_files():
    files = sorted((ROOT / "scenarios").rglob("*.yaml"))
    return [f for f in files]


def sql_of_scenario(path):
    out = []
    try:
        doc = yaml.safe_load(path.read_text())
    except yaml.YAMLError:
        return out
    if not isinstance(doc, dict):
        return out
    if isinstance(doc.get("table"), str):
        out.append(doc["table"])
    for key in ("setup", "steps"):
        for step in doc.get(key) or []:
            if isinstance(step, dict) and isinstance(step.get("sql"), str):
                out.append(doc.get("table", "") + ";\n" + step["sql"])
    return out


# Console statements past what tests/data/console holds: unfinished and unsupported ones, SHOW,
# information_schema and ADMIN on a fresh table.
CONSOLE_SHAPES = {
    "console-unfinished": "CREATE TABLE t (a INT, ts TIMESTAMP TIME INDEX) "
                          "PARTITION ON COLUMNS (a) (a < 5, a >= 5);\nINSERT INTO t VALUES (1, 1)",
    "console-metadata": "CREATE TABLE t (a INT PRIMARY KEY, ts TIMESTAMP TIME INDEX) "
                        "PARTITION ON COLUMNS (a) (a < 5, a >= 5);\n"
                        "SHOW CREATE TABLE greptime.public.t;\n"
                        "SELECT partition_name FROM information_schema.partitions "
                        "WHERE partition_description IS NOT NULL;\n"
                        "ADMIN compact_table('t', 'regular');\n"
                        "ADMIN migrate_region(4398046511104, 1, 2, 30);\n"
                        "SELECT count(*) FROM t;\n",
    "console-refused": "SHOW TABLES; TRUNCATE t; 'x'; ;;; -- c\nSELECT \"a;\" FROM t;",
}


def reset(target):
    d = CORPUS / target
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    return d


def name_of(path):
    return str(path.relative_to(ROOT)).replace("/", "-")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=str(ROOT / "build/repartsim"))
    args = parser.parse_args()

    d = reset("sql")
    seen = set()
    texts = {f"shape-{i:02d}": s for i, s in enumerate(SHAPES)}
    texts.update(limit_inputs())
    for path in sorted((ROOT / "tests/data").rglob("*.sql")):
        texts[name_of(path)] = path.read_text()
    for path in scenario_files():
        for i, s in enumerate(sql_of_scenario(path)):
            texts[f"{name_of(path)}-{i}"] = s
    for name, text in sorted(texts.items()):
        if text in seen:
            continue
        seen.add(text)
        (d / (name + ".sql")).write_text(text)

    d = reset("console")
    for path in sorted((ROOT / "tests/data/console").glob("*.sql")):
        shutil.copy(path, d / name_of(path))
    for name, text in CONSOLE_SHAPES.items():
        (d / (name + ".sql")).write_text(text)

    d = reset("scenario")
    sources = scenario_files() + sorted((ROOT / "tests/data/scenarios").glob("*.yaml")) + \
        sorted((ROOT / "tests/data/bad_input").glob("*.yaml"))
    for path in sources:
        shutil.copy(path, d / name_of(path))

    d = reset("run")
    for path in scenario_files():
        shutil.copy(path, d / name_of(path))

    binary = os.path.abspath(args.binary)
    if not os.access(binary, os.X_OK):
        print(f"gen_corpus: {binary} not built; choices and merge corpora left as they are")
        return
    with tempfile.TemporaryDirectory() as tmp:
        d = reset("choices")
        for scenario in ("scenarios/split/split_with_writers.yaml",
                         "scenarios/crash/datanode_restart_writes.yaml"):
            for seed in (0, 1):
                out = d / f"{pathlib.Path(scenario).stem}-{seed}.choices"
                subprocess.run([binary, "run", str(ROOT / scenario), "--seed", str(seed),
                                "--choices", str(out)], cwd=tmp, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, check=False)
        d = reset("merge")
        runs = [("split", ["scenarios/split/split_with_writers.yaml"], "0..1", []),
                ("unsafe", ["tests/data/scenarios/unsafe_reference.yaml"], "0..1", []),
                ("shard-a", ["scenarios/split/split_with_writers.yaml"], "0..3", ["--shard", "0/2"]),
                ("shard-b", ["scenarios/split/split_with_writers.yaml"], "0..3", ["--shard", "1/2"])]
        for name, scenarios, seeds, extra in runs:
            out = d / f"{name}.json"
            subprocess.run([binary, "sweep", *[str(ROOT / s) for s in scenarios], "--seeds", seeds,
                            "--json", str(out), *extra], cwd=tmp, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=False)
    (CORPUS / "choices" / "handmade.choices").write_text(HANDMADE_CHOICES)
    for target in ("choices", "merge"):  # no machine paths in the committed corpus
        for f in (CORPUS / target).iterdir():
            f.write_text(f.read_text().replace(str(ROOT) + "/", ""))
    for target in ("sql", "console", "scenario", "run", "choices", "merge"):
        files = list((CORPUS / target).iterdir())
        print(f"{target}: {len(files)} files, {sum(f.stat().st_size for f in files)} bytes")


if __name__ == "__main__":
    main()
