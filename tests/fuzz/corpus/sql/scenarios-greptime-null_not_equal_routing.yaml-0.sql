CREATE TABLE cpu (host STRING NULL, ts TIMESTAMP TIME INDEX, v BIGINT, a INT,
                  PRIMARY KEY (host, a))
PARTITION ON COLUMNS (host) (host = 'h0', host <> 'h0')
