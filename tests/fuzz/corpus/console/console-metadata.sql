CREATE TABLE t (a INT PRIMARY KEY, ts TIMESTAMP TIME INDEX) PARTITION ON COLUMNS (a) (a < 5, a >= 5);
SHOW CREATE TABLE greptime.public.t;
SELECT partition_name FROM information_schema.partitions WHERE partition_description IS NOT NULL;
ADMIN compact_table('t', 'regular');
ADMIN migrate_region(4398046511104, 1, 2, 30);
SELECT count(*) FROM t;
