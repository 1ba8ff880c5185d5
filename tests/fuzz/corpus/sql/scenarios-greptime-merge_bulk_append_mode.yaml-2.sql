CREATE TABLE cpu (host STRING, ts TIMESTAMP TIME INDEX, v BIGINT, a INT,
                  PRIMARY KEY (host, a))
PARTITION ON COLUMNS (a) (a < 10, a >= 10 AND a < 20, a >= 20)
WITH (append_mode = 'true')
;
ALTER TABLE cpu MERGE PARTITION (a >= 10 AND a < 20, a >= 20)