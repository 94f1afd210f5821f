CREATE TABLE `archive_deletions` (
	`object_key` varchar(255) NOT NULL,
	`org_id` varchar(40) NOT NULL,
	`requested_at` datetime(3) NOT NULL,
	`attempts` int unsigned NOT NULL DEFAULT 0,
	`next_attempt_at` datetime(3) NOT NULL,
	`last_error` varchar(512),
	CONSTRAINT `archive_deletions_object_key` PRIMARY KEY(`object_key`)
);
--> statement-breakpoint
CREATE TABLE `archive_segments` (
	`object_key` varchar(255) NOT NULL,
	`org_id` varchar(40) NOT NULL,
	`workstream_id` varchar(40) NOT NULL,
	`first_sequence` bigint unsigned NOT NULL,
	`last_sequence` bigint unsigned NOT NULL,
	`bytes` int unsigned,
	`sha256` char(64),
	`created_at` datetime(3) NOT NULL,
	`uploaded_at` datetime(3),
	`attempts` int unsigned NOT NULL DEFAULT 0,
	`next_attempt_at` datetime(3) NOT NULL,
	`last_error` varchar(512),
	CONSTRAINT `archive_segments_object_key` PRIMARY KEY(`object_key`)
);
--> statement-breakpoint
CREATE TABLE `workstream_events` (
	`workstream_id` varchar(40) NOT NULL,
	`sequence` bigint unsigned NOT NULL,
	`event_id` varchar(128) NOT NULL,
	`org_id` varchar(40) NOT NULL,
	`user_id` varchar(40) NOT NULL,
	`harness` enum('claude-code','codex','opencode','generic') NOT NULL,
	`kind` enum('message','tool_call','tool_result','compaction','checkpoint','annotation','lifecycle') NOT NULL,
	`role` enum('user','assistant','tool','system') NOT NULL,
	`event` varchar(64) NOT NULL,
	`lifecycle_only` boolean NOT NULL,
	`tool_use_id` varchar(128),
	`tool_name` varchar(128),
	`outcome` enum('success','error'),
	`content` mediumtext NOT NULL,
	`search_terms` mediumtext NOT NULL,
	`occurred_at` datetime(3) NOT NULL,
	`received_at` datetime(3) NOT NULL,
	`metadata` json NOT NULL,
	`content_sha256` char(64) NOT NULL,
	`payload_sha256` char(64) NOT NULL,
	`payload_bytes` int unsigned NOT NULL,
	`payload` mediumtext,
	`segment_key` varchar(255),
	CONSTRAINT `workstream_events_workstream_id_sequence_pk` PRIMARY KEY(`workstream_id`,`sequence`),
	CONSTRAINT `workstream_events_event_id` UNIQUE(`workstream_id`,`event_id`)
);
--> statement-breakpoint
CREATE TABLE `workstreams` (
	`id` varchar(40) NOT NULL,
	`org_id` varchar(40) NOT NULL,
	`user_id` varchar(40) NOT NULL,
	`harness` enum('claude-code','codex','opencode','generic') NOT NULL,
	`native_session_id` varchar(255) NOT NULL,
	`cwd` varchar(1024),
	`transcript_path` varchar(1024),
	`model` varchar(128),
	`created_at` datetime(3) NOT NULL,
	`last_event_at` datetime(3) NOT NULL,
	`ended_at` datetime(3),
	`last_sequence` bigint unsigned NOT NULL DEFAULT 0,
	`archived_through` bigint unsigned NOT NULL DEFAULT 0,
	`pending_count` int unsigned NOT NULL DEFAULT 0,
	`pending_bytes` bigint unsigned NOT NULL DEFAULT 0,
	`pending_since` datetime(3),
	`seal_requested` boolean NOT NULL DEFAULT false,
	CONSTRAINT `workstreams_id` PRIMARY KEY(`id`),
	CONSTRAINT `workstreams_native` UNIQUE(`org_id`,`user_id`,`harness`,`native_session_id`)
);
--> statement-breakpoint
ALTER TABLE `workstream_events` ADD CONSTRAINT `workstream_events_workstream_id_workstreams_id_fk` FOREIGN KEY (`workstream_id`) REFERENCES `workstreams`(`id`) ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE `workstreams` ADD CONSTRAINT `workstreams_org_id_orgs_id_fk` FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE `workstreams` ADD CONSTRAINT `workstreams_user_id_users_id_fk` FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX `archive_deletions_due` ON `archive_deletions` (`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `archive_segments_workstream` ON `archive_segments` (`workstream_id`,`first_sequence`);--> statement-breakpoint
CREATE INDEX `archive_segments_retry` ON `archive_segments` (`uploaded_at`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `workstream_events_tool_use` ON `workstream_events` (`workstream_id`,`tool_use_id`);--> statement-breakpoint
CREATE INDEX `workstream_events_owner` ON `workstream_events` (`org_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `workstreams_owner_activity` ON `workstreams` (`org_id`,`user_id`,`last_event_at`,`id`);--> statement-breakpoint
CREATE INDEX `workstreams_pending` ON `workstreams` (`pending_since`);