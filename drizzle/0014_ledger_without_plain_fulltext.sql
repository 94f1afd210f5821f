-- The ledger's plain FULLTEXT index on `content` (0004) served no query: ledger search reads
-- the owner-prefixed `search_terms` index. Every append paid for it, InnoDB tokenizing each
-- new row's content once more (docs/benchmarks.md: the database's CPU per batched event
-- 10–24 % lower without it). The memory table keeps its plain index (the bench's naive plan
-- and the relevance test compare against it).
DROP INDEX `ft_workstream_events_content` ON `workstream_events`;
