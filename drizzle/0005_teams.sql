CREATE TABLE `audit_events` (
	`id` varchar(40) NOT NULL,
	`org_id` varchar(40) NOT NULL,
	`actor_type` enum('user','operator') NOT NULL,
	`actor_user_id` varchar(40),
	`actor_key_id` varchar(40),
	`action` varchar(64) NOT NULL,
	`target_type` varchar(32) NOT NULL,
	`target_id` varchar(64),
	`counts` json,
	`request_id` varchar(128) NOT NULL,
	`created_at` datetime(3) NOT NULL,
	CONSTRAINT `audit_events_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
ALTER TABLE `users` ADD `oidc_issuer` varchar(255);--> statement-breakpoint
ALTER TABLE `users` ADD `oidc_subject` varchar(255);--> statement-breakpoint
ALTER TABLE `users` ADD `removed_at` datetime(3);--> statement-breakpoint
ALTER TABLE `users` ADD CONSTRAINT `users_oidc_identity` UNIQUE(`oidc_issuer`,`oidc_subject`);--> statement-breakpoint
CREATE INDEX `audit_events_org` ON `audit_events` (`org_id`,`id`);--> statement-breakpoint
CREATE INDEX `audit_events_org_action` ON `audit_events` (`org_id`,`action`,`id`);--> statement-breakpoint
CREATE INDEX `audit_events_org_actor` ON `audit_events` (`org_id`,`actor_user_id`,`id`);