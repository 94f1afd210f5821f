CREATE TABLE `maintenance_runs` (
	`job` varchar(64) NOT NULL,
	`finished_at` datetime(3) NOT NULL,
	`holder` varchar(64) NOT NULL,
	`started_at` datetime(3) NOT NULL,
	`counts` json NOT NULL,
	CONSTRAINT `maintenance_runs_job_finished` PRIMARY KEY(`job`,`finished_at`,`holder`)
);
--> statement-breakpoint
CREATE INDEX `archive_segments_org_age` ON `archive_segments` (`org_id`,`created_at`);