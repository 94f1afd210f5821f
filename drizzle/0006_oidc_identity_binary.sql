-- OIDC issuers and subjects are case-sensitive strings: compare them byte for byte, so
-- that "Alice" can never sign in as "alice" through the case-insensitive default collation.
ALTER TABLE `users` MODIFY `oidc_issuer` varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;
--> statement-breakpoint
ALTER TABLE `users` MODIFY `oidc_subject` varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;
