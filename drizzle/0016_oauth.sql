CREATE TABLE `oauth_keys` (
	`id` varchar(40) NOT NULL,
	`kind` enum('signing','cookie') NOT NULL,
	`secret` text NOT NULL,
	`created_at` datetime(3) NOT NULL,
	CONSTRAINT `oauth_keys_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
CREATE TABLE `oauth_records` (
	`ref` char(64) NOT NULL,
	`model` varchar(40) NOT NULL,
	`payload` json NOT NULL,
	`grant_id` varchar(64),
	`uid` varchar(64),
	`org_id` varchar(40),
	`user_id` varchar(40),
	`client_id` varchar(255),
	`client_name` varchar(200),
	`created_at` datetime(3) NOT NULL,
	`expires_at` datetime(3),
	`consumed_at` datetime(3),
	`last_used_at` datetime(3),
	CONSTRAINT `oauth_records_ref` PRIMARY KEY(`ref`)
);
--> statement-breakpoint
CREATE INDEX `oauth_records_grant` ON `oauth_records` (`grant_id`);--> statement-breakpoint
CREATE INDEX `oauth_records_uid` ON `oauth_records` (`uid`);--> statement-breakpoint
CREATE INDEX `oauth_records_owner` ON `oauth_records` (`org_id`,`user_id`,`model`);--> statement-breakpoint
CREATE INDEX `oauth_records_expiry` ON `oauth_records` (`expires_at`);