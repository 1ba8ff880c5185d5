-- comment
SELECT * FROM "t" WHERE `a` = 1;;