-- The event ledger's plain FULLTEXT index on `content` served nothing the service asks: its
-- searches use the owner-prefixed `search_terms` index (docs/architecture.md#search), and an
-- unscoped MATCH(content) is the plan that reads every tenant's matches. Each appended event
-- paid for it (InnoDB tokenised every ledger row twice); without it a batched event costs the
-- database ~9 % less CPU (docs/benchmarks.md).
DROP INDEX `ft_workstream_events_content` ON `workstream_events`;
