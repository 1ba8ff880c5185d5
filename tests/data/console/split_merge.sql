-- A partitioned table: insert, split a region, select, merge two regions, select, show it.
CREATE TABLE my_table (
  a INT PRIMARY KEY,
  b STRING,
  ts TIMESTAMP TIME INDEX,
)
PARTITION ON COLUMNS (a) (
  a < 1000,
  a >= 1000 AND a < 2000,
  a >= 2000
);

INSERT INTO my_table VALUES
    (100, 'a', 1),
    (200, 'b', 2),
    (1100, 'c', 3),
    (1200, 'd', 4),
    (2000, 'e', 5),
    (2100, 'f', 6),
    (2200, 'g', 7),
    (2400, 'h', 8);

ALTER TABLE my_table SPLIT PARTITION (
  a < 1000
) INTO (
  a < 500,
  a >= 500 AND a < 1000
);

SELECT * FROM my_table ORDER BY a;

ALTER TABLE my_table MERGE PARTITION (
  a >= 1000 AND a < 2000,
  a >= 2000
);

SELECT * FROM my_table WHERE a >= 1000 ORDER BY a DESC;

SELECT count(*) FROM my_table;

SHOW CREATE TABLE my_table;

SELECT table_catalog, table_schema, table_name, partition_name, partition_expression, partition_description, greptime_partition_id from information_schema.partitions WHERE table_name = 'my_table' ORDER BY table_catalog, table_schema, table_name, partition_name;
