CREATE TABLE cpu (host STRING, ts TIMESTAMP TIME INDEX, v BIGINT, a INT,
                  PRIMARY KEY (host, a))
PARTITION ON COLUMNS (a) (a < 10, a >= 10 AND a < 20, a >= 20)
;
ALTER TABLE cpu REPARTITION (a < 10, a >= 20) INTO (a < 5, a >= 5 AND a < 10, a >= 20 AND a < 30, a >= 30)