-- ADMIN functions: flush and compact a table (answer 0), migrate a region (the procedure id),
-- and the rows stay readable throughout.
CREATE TABLE test (
  a INT PRIMARY KEY,
  ts TIMESTAMP TIME INDEX
)
PARTITION ON COLUMNS (a) (
  a < 10,
  a >= 10
);

INSERT INTO test VALUES (1, 1), (2, 2), (11, 3);

ADMIN FLUSH_TABLE('test');

INSERT INTO test VALUES (3, 4), (12, 5);

ADMIN flush_table('public.test');

ADMIN COMPACT_TABLE(
    'test',
    'regular',
    'start_time=1970-01-01T00:00:00Z,end_time=1970-01-01T01:00:00Z'
);

SELECT greptime_partition_id FROM information_schema.partitions ORDER BY greptime_partition_id;

-- Region 0 is on datanode 1 (regions are placed round robin), region 1 on datanode 2.
ADMIN migrate_region(4398046511104, 1, 3);

ADMIN migrate_region(4398046511105, 1, 3);

ADMIN migrate_region(4398046511105, 2, 2);

ADMIN migrate_region(4398046511199, 1, 2);

SELECT * FROM test ORDER BY a;

SELECT count(*) FROM test WHERE a < 10;

ADMIN flush_table('nope');

ADMIN gc_table('test');
