CREATE TABLE `idempotency_keys` (
	`org_id` varchar(40) NOT NULL,
	`user_id` varchar(40) NOT NULL,
	`key_hash` char(64) NOT NULL,
	`request_hash` char(64) NOT NULL,
	`status` smallint unsigned,
	`result_id` varchar(40),
	`created_at` datetime(3) NOT NULL,
	CONSTRAINT `idempotency_keys_org_id_user_id_key_hash_pk` PRIMARY KEY(`org_id`,`user_id`,`key_hash`)
);
--> statement-breakpoint
ALTER TABLE `idempotency_keys` ADD CONSTRAINT `idempotency_keys_org_id_orgs_id_fk` FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE `idempotency_keys` ADD CONSTRAINT `idempotency_keys_user_id_users_id_fk` FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX `idempotency_keys_org_created` ON `idempotency_keys` (`org_id`,`created_at`);--> statement-breakpoint
-- keys:manage: before it, every key could create, list and revoke its user's keys. Keys that
-- carry the full default scopes of that time (the key printed by org creation, a member's
-- first key, keys created with the default scopes) keep that power; narrower keys (a
-- hooks:write key on a laptop) lose it, which is the point. Any key may still revoke itself.
UPDATE `api_keys` SET `scopes` = JSON_ARRAY_APPEND(`scopes`, '$', 'keys:manage')
WHERE JSON_CONTAINS(`scopes`, '["memory:read","memory:write","hooks:write","workstreams:read","workstreams:write"]')
  AND NOT JSON_CONTAINS(`scopes`, '"keys:manage"');
