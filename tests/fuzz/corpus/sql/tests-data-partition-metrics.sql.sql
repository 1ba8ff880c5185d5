-- A table partitioned by host into three regions (0, 1, 2 in list order).
CREATE TABLE metrics (
  host STRING,
  dc STRING,
  cpu DOUBLE,
  ts TIMESTAMP TIME INDEX,
  PRIMARY KEY (host, dc)
)
PARTITION ON COLUMNS (host) (
  host < 'h',
  host >= 'h' AND host < 'p',
  host >= 'p'
);
