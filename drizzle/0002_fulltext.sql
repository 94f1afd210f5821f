-- drizzle cannot declare FULLTEXT indexes, so they live here.
-- NEVER run `drizzle-kit push`: it drops these and still exits 0.

-- The plain index on content: kept for the comparison plan in `pnpm bench` and for
-- operators' ad-hoc queries. The API searches search_terms (owner-prefixed tokens).
CREATE FULLTEXT INDEX `ft_memory_content` ON `memory` (`content`);
--> statement-breakpoint
CREATE FULLTEXT INDEX `ft_memory_search_terms` ON `memory` (`search_terms`);
