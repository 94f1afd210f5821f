-- Per-owner search statistics (BM25 over the owner's own rows) and the format version of
-- memory.search_terms. Adding a column with a default is instant on MySQL 8 and MariaDB
-- 10.3+ (no table copy). Rows written before this (search_version 0) are re-indexed
-- afterwards in small batches by the service (reindexMemorySearch, see
-- docs/operations.md#search-re-index), not here: stems and parts are computed in the app.
CREATE TABLE `memory_term_stats` (
	`org_id` varchar(40) NOT NULL,
	`owner_id` varchar(40) NOT NULL,
	`term` varchar(80) NOT NULL,
	`docs` int NOT NULL,
	`tokens` bigint NOT NULL,
	CONSTRAINT `memory_term_stats_org_id_owner_id_term_pk` PRIMARY KEY(`org_id`,`owner_id`,`term`)
);
--> statement-breakpoint
ALTER TABLE `memory` ADD `search_version` tinyint unsigned DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `memory_term_stats` ADD CONSTRAINT `memory_term_stats_org_id_orgs_id_fk` FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON DELETE cascade ON UPDATE no action;
