CREATE TABLE `memory_vectors` (
	`org_id` varchar(40) NOT NULL,
	`memory_id` varchar(40) NOT NULL,
	`owner_id` varchar(40) NOT NULL,
	`model` varchar(128) NOT NULL,
	`content_key` char(64) NOT NULL,
	`vector` varbinary(4096),
	`embedded_at` datetime(3) NOT NULL,
	CONSTRAINT `memory_vectors_memory_pk` PRIMARY KEY(`org_id`,`memory_id`)
);
--> statement-breakpoint
ALTER TABLE `memory_vectors` ADD CONSTRAINT `memory_vectors_memory_id_memory_id_fk` FOREIGN KEY (`memory_id`) REFERENCES `memory`(`id`) ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX `memory_vectors_memory` ON `memory_vectors` (`memory_id`);--> statement-breakpoint
CREATE INDEX `memory_vectors_owner_model` ON `memory_vectors` (`org_id`,`owner_id`,`model`,`embedded_at`);