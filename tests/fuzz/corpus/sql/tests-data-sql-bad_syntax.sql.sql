-- Expected: tests/data/sql/bad_syntax.sql:6:24: error: Expected an expression, found: <
CREATE TABLE metrics (host STRING, ts TIMESTAMP TIME INDEX)
PARTITION ON COLUMNS (host) (
  host < 'h',
  host >= 'h'
    AND host < 'p' AND < 'z',
  host >= 'p'
);
