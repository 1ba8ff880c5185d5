-- Errors as GreptimeDB words them (its tests/cases/standalone/common/alter/repartition_error
-- and partition cases, with other tables and values).
CREATE TABLE sensors (
  id INT,
  zone STRING,
  ts TIMESTAMP TIME INDEX,
  PRIMARY KEY(id)
) PARTITION ON COLUMNS (id) (
  id < 10,
  id >= 10 AND id < 20,
  id >= 20
);

CREATE TABLE sensors (id INT, ts TIMESTAMP TIME INDEX);

CREATE TABLE IF NOT EXISTS sensors (id INT, ts TIMESTAMP TIME INDEX);

CREATE TABLE gaps (
  id INT PRIMARY KEY,
  ts TIMESTAMP TIME INDEX,
)
PARTITION ON COLUMNS (id) (
  id < 10,
  id > 10 AND id < 20,
  id >= 20
);

-- A new rule naming a column that is not a partition column.
ALTER TABLE sensors SPLIT PARTITION (
  id < 10
) INTO (
  id < 5,
  id >= 5 AND id < 10 AND ts < 1000
);

-- A source expression the table does not have.
ALTER TABLE sensors MERGE PARTITION (
  id < 5,
  id >= 5 AND id < 10
);

-- A gap and an overlap.
ALTER TABLE sensors REPARTITION (
  id < 10
) INTO (
  id < 5,
  id >= 10
);

ALTER TABLE sensors SPLIT PARTITION (
  id < 10
) INTO (
  id < 10,
  id >= 5 AND id < 15
);

ALTER TABLE sensors PARTITION ON COLUMNS (id) (id < 5, id >= 5);

ALTER TABLE missing SPLIT PARTITION (id < 10) INTO (id < 5, id >= 5 AND id < 10);

-- Syntax: an empty source clause, and two INTO clauses.
ALTER TABLE sensors REPARTITION () INTO (
  id < 10
);

ALTER TABLE sensors REPARTITION (
  id < 10
) INTO (
  id < 5
), (
  id >= 5
) INTO (
  id >= 5
);

INSERT INTO sensors (id, nope, ts) VALUES (1, 2, 3);

INSERT INTO missing VALUES (1, 'a', 1);

SELECT * FROM sensors WHERE nope = 1;

SELECT * FROM missing;

SELEC * FROM sensors;

DELETE FROM sensors WHERE id < 5;

SELECT nope FROM sensors;

SHOW CREATE TABLE missing;

SHOW TABLES;

SHOW CREATE TABLE;
