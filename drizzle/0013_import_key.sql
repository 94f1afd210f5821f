ALTER TABLE `memory` ADD `import_key` char(64);--> statement-breakpoint
ALTER TABLE `memory` ADD CONSTRAINT `memory_import_key` UNIQUE(`org_id`,`user_id`,`import_key`);