-- Search statistics of terms no memory holds any more (docs reached 0 when their last
-- memory was deleted or changed): their words may be all that is left of deleted memories.
-- From now on such rows are deleted as they empty (packages/db/src/search/stats.ts).
DELETE FROM `memory_term_stats` WHERE `docs` <= 0;
