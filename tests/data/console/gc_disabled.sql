-- Run with --scenario scenarios/split/repartition_refused_without_gc.yaml (cluster.gc: false),
-- as GreptimeDB's distributed repartition sqlness case runs without metasrv GC.
CREATE TABLE alter_repartition_table(
  device_id INT,
  area STRING,
  ty STRING,
  ts TIMESTAMP TIME INDEX,
  PRIMARY KEY(device_id)
) PARTITION ON COLUMNS (device_id, area) (
  device_id < 100,
  device_id >= 100 AND device_id < 200,
  device_id >= 200
);

ALTER TABLE alter_repartition_table REPARTITION (
  device_id < 100
) INTO (
  device_id < 100 AND area < 'South',
  device_id < 100 AND area >= 'South'
);

SHOW CREATE TABLE alter_repartition_table;

ALTER TABLE alter_repartition_table MERGE PARTITION (
  device_id < 100,
  device_id >= 100 AND device_id < 200,
);

ALTER TABLE alter_repartition_table REPARTITION (
  device_id < 100
) INTO (
  device_id < 100 AND area < 'South',
  device_id < 100 AND area >= 'South'
) WITH (
  TIMEOUT = '5m',
  WAIT = false
);
