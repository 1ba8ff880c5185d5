CREATE TABLE cpu (host STRING, ts TIMESTAMP TIME INDEX, v BIGINT, a INT NULL,
                  PRIMARY KEY (host, a))
PARTITION ON COLUMNS (a) (a < 10, a >= 10 AND a < 20, a >= 20)
;
SELECT * FROM cpu WHERE a IS NULL