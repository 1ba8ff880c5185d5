CREATE TABLE cpu (host STRING, ts TIMESTAMP TIME INDEX, v BIGINT, a INT,
                  PRIMARY KEY (host, a))
PARTITION ON COLUMNS (a) (a < 10, a >= 10)
;
INSERT INTO cpu VALUES ('h3', 60, 60, 4)