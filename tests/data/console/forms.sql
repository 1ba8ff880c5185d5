-- Every repartition form: PARTITION ON COLUMNS of an unpartitioned table, REPARTITION with
-- ON COLUMNS, SPLIT without waiting, and the rows after each.
CREATE TABLE metrics (
  host STRING,
  region INT,
  cpu DOUBLE,
  ts TIMESTAMP TIME INDEX,
  PRIMARY KEY (host, region)
);

INSERT INTO metrics VALUES
  ('a', 1, 0.5, 1000),
  ('b', 2, 1.0, 2000),
  ('m', 3, NULL, 3000),
  ('z', 4, 2.25, 86400000);

ALTER TABLE metrics PARTITION ON COLUMNS (host) (
  host < 'm',
  host >= 'm'
);

SELECT * FROM metrics WHERE host >= 'b' ORDER BY host;

ALTER TABLE metrics REPARTITION (
  host < 'm'
) ON COLUMNS (host, region) INTO (
  host < 'm' AND region < 2,
  host < 'm' AND region >= 2
) WITH (TIMEOUT = '5m');

ALTER TABLE metrics SPLIT PARTITION (
  host >= 'm'
) INTO (
  host >= 'm' AND host < 'x',
  host >= 'x'
) WITH (WAIT = false);

INSERT INTO metrics (host, region, ts) VALUES ('y', 9, 5000);

SELECT count(*) FROM metrics WHERE region >= 2;

SELECT * FROM metrics ORDER BY ts DESC;

SELECT host, ts FROM metrics WHERE region < 5 ORDER BY host;

SELECT partition_name, partition_expression, partition_description FROM information_schema.partitions WHERE table_name = 'metrics' ORDER BY partition_name;

SHOW CREATE TABLE metrics;

CREATE TABLE logs (ts TIMESTAMP TIME INDEX, msg STRING) WITH (append_mode = 'true');

SHOW CREATE TABLE public.logs;

SELECT count(*) FROM information_schema.partitions;
