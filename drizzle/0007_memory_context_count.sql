ALTER TABLE `memory` ADD `context_count` smallint unsigned DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Memories saved before this migration: count their contexts once.
UPDATE `memory` SET `context_count` = (SELECT COUNT(*) FROM `memory_context` WHERE `memory_context`.`memory_id` = `memory`.`id`);
