CREATE TABLE cpu (host STRING, ts TIMESTAMP TIME INDEX, v BIGINT, a INT NULL,
                  PRIMARY KEY (host, a))
PARTITION ON COLUMNS (a) (a < 10, a >= 10 AND a < 20, a >= 20)
;
INSERT INTO cpu VALUES ('h0', 1, 1, NULL), ('h1', 2, 2, 15)