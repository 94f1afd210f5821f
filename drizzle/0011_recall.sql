-- Recall into the session (docs/hooks.md#recall). `recall` is appended to the ENUM, an
-- in-place change; the index finds a session's recalls and last prompt and reply.
ALTER TABLE `workstream_events` MODIFY COLUMN `kind` enum('message','tool_call','tool_result','compaction','checkpoint','annotation','lifecycle','recall') NOT NULL;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `recall_budget_chars` smallint unsigned;--> statement-breakpoint
CREATE INDEX `workstream_events_kind` ON `workstream_events` (`workstream_id`,`kind`);
