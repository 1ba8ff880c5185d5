SHOW TABLES; TRUNCATE t; 'x'; ;;; -- c
SELECT "a;" FROM t;