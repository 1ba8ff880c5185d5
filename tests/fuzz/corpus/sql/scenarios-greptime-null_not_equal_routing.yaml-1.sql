CREATE TABLE cpu (host STRING NULL, ts TIMESTAMP TIME INDEX, v BIGINT, a INT,
                  PRIMARY KEY (host, a))
PARTITION ON COLUMNS (host) (host = 'h0', host <> 'h0')
;
INSERT INTO cpu VALUES (NULL, 1, 1, 3), ('h1', 2, 2, 15), ('h0', 3, 3, 5)