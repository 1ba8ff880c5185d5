CREATE TABLE cpu (host STRING, ts TIMESTAMP TIME INDEX, v BIGINT, a INT,
                  PRIMARY KEY (host, a))
PARTITION ON COLUMNS (a) (a < 10, a >= 10)
;
ALTER TABLE cpu REPARTITION (a < 10, a >= 10) ON COLUMNS (host) INTO (host < 'h1', host >= 'h1' AND host < 'h2', host >= 'h2')