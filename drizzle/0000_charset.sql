-- Tables inherit the database's character set. Make it utf8mb4 whatever the server's
-- default is, so memories keep every character (emoji included).
ALTER DATABASE CHARACTER SET utf8mb4;
