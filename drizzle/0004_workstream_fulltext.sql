-- FULLTEXT indexes of the event ledger (drizzle cannot declare them; never `drizzle-kit push`).
-- content: the plain index (bench comparison, ad-hoc queries); search_terms: owner-prefixed
-- tokens, what GET /v1/workstreams/search uses (see docs/architecture.md#search).
CREATE FULLTEXT INDEX `ft_workstream_events_content` ON `workstream_events` (`content`);
--> statement-breakpoint
CREATE FULLTEXT INDEX `ft_workstream_events_search_terms` ON `workstream_events` (`search_terms`);
