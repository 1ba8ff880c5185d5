CREATE TABLE cpu (host STRING, ts TIMESTAMP TIME INDEX, v BIGINT, a INT,
                  PRIMARY KEY (host, a))
;
INSERT INTO cpu VALUES ('h0', 1, 1, 3), ('h1', 2, 2, 15), ('h2', 3, 3, 25)