CREATE TABLE `maintenance_leases` (
	`job` varchar(64) NOT NULL,
	`holder` varchar(64) NOT NULL,
	`leased_until` datetime(3) NOT NULL,
	CONSTRAINT `maintenance_leases_job` PRIMARY KEY(`job`)
);
--> statement-breakpoint
ALTER TABLE `orgs` ADD `dedupe_memories` boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `orgs` ADD `memory_retention_days` smallint unsigned;--> statement-breakpoint
ALTER TABLE `orgs` ADD `workstream_retention_days` smallint unsigned;--> statement-breakpoint
ALTER TABLE `memory` ADD `content_key` char(64);--> statement-breakpoint
ALTER TABLE `memory` ADD `superseded_by` varchar(40);--> statement-breakpoint
ALTER TABLE `memory` ADD `expires_at` datetime(3);--> statement-breakpoint
ALTER TABLE `memory` ADD `pinned` boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `memory` ADD `use_count` int unsigned DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `memory` ADD `last_used_at` datetime(3);--> statement-breakpoint
CREATE INDEX `memory_content_key` ON `memory` (`org_id`,`content_key`);--> statement-breakpoint
CREATE INDEX `memory_superseded_by` ON `memory` (`org_id`,`superseded_by`);--> statement-breakpoint
CREATE INDEX `memory_expiry` ON `memory` (`expires_at`);--> statement-breakpoint
CREATE INDEX `memory_org_updated` ON `memory` (`org_id`,`updated_at`);