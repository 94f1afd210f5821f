-- A harness session id is an opaque string: "ABC" and "abc" are different sessions. Compared
-- byte for byte (trailing spaces aside, as with every PAD SPACE collation), the database
-- agrees with the ingest path on which events belong to one workstream.
ALTER TABLE `workstreams` MODIFY `native_session_id` varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL;
