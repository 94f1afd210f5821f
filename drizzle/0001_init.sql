CREATE TABLE `orgs` (
	`id` varchar(40) NOT NULL,
	`name` varchar(200) NOT NULL,
	`created_at` datetime(3) NOT NULL,
	CONSTRAINT `orgs_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` varchar(40) NOT NULL,
	`org_id` varchar(40) NOT NULL,
	`email` varchar(320) NOT NULL,
	`role` enum('owner','admin','member') NOT NULL,
	`created_at` datetime(3) NOT NULL,
	CONSTRAINT `users_id` PRIMARY KEY(`id`),
	CONSTRAINT `users_org_email` UNIQUE(`org_id`,`email`)
);
--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` varchar(40) NOT NULL,
	`org_id` varchar(40) NOT NULL,
	`user_id` varchar(40) NOT NULL,
	`name` varchar(100) NOT NULL,
	`key_hash` char(64) NOT NULL,
	`display_prefix` varchar(16) NOT NULL,
	`scopes` json NOT NULL,
	`created_at` datetime(3) NOT NULL,
	`last_used_at` datetime(3),
	`revoked_at` datetime(3),
	CONSTRAINT `api_keys_id` PRIMARY KEY(`id`),
	CONSTRAINT `api_keys_hash` UNIQUE(`key_hash`)
);
--> statement-breakpoint
CREATE TABLE `memory` (
	`id` varchar(40) NOT NULL,
	`org_id` varchar(40) NOT NULL,
	`user_id` varchar(40) NOT NULL,
	`scope` enum('user','org') NOT NULL,
	`content` text NOT NULL,
	`source` enum('api','mcp','hook') NOT NULL,
	`tags` json NOT NULL,
	`search_terms` mediumtext NOT NULL,
	`created_at` datetime(3) NOT NULL,
	`updated_at` datetime(3) NOT NULL,
	CONSTRAINT `memory_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
CREATE TABLE `memory_context` (
	`id` varchar(40) NOT NULL,
	`memory_id` varchar(40) NOT NULL,
	`org_id` varchar(40) NOT NULL,
	`snippet` text NOT NULL,
	`citation` json,
	`conversation_id` varchar(128),
	`message_id` varchar(128),
	`origin` enum('active_conversation','searched_conversation') NOT NULL,
	`created_at` datetime(3) NOT NULL,
	CONSTRAINT `memory_context_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
ALTER TABLE `users` ADD CONSTRAINT `users_org_id_orgs_id_fk` FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE `api_keys` ADD CONSTRAINT `api_keys_org_id_orgs_id_fk` FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE `api_keys` ADD CONSTRAINT `api_keys_user_id_users_id_fk` FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE `memory` ADD CONSTRAINT `memory_org_id_orgs_id_fk` FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE `memory` ADD CONSTRAINT `memory_user_id_users_id_fk` FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE `memory_context` ADD CONSTRAINT `memory_context_memory_id_memory_id_fk` FOREIGN KEY (`memory_id`) REFERENCES `memory`(`id`) ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX `users_org_id` ON `users` (`org_id`,`id`);--> statement-breakpoint
CREATE INDEX `api_keys_user` ON `api_keys` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `memory_owner_id` ON `memory` (`org_id`,`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `memory_org_scope_id` ON `memory` (`org_id`,`scope`,`id`);--> statement-breakpoint
CREATE INDEX `memory_context_memory` ON `memory_context` (`memory_id`,`id`);--> statement-breakpoint
CREATE INDEX `memory_context_org` ON `memory_context` (`org_id`);