ALTER TABLE `workstreams` ADD `project` varchar(512);--> statement-breakpoint
CREATE INDEX `workstreams_owner_project` ON `workstreams` (`org_id`,`user_id`,`project`,`last_event_at`,`id`);--> statement-breakpoint
-- Sessions recorded before clients sent a project belong to their working directory's project (what recall matched before).
UPDATE `workstreams` SET `project` = CASE WHEN CHAR_LENGTH(`cwd`) > 512 THEN CONCAT('sha256:', SHA2(`cwd`, 256)) ELSE `cwd` END WHERE `project` IS NULL AND `cwd` IS NOT NULL;
