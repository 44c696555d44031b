-- Morph database, schema v8: each relation lesson also keeps its position's static material (log-odds for the side
-- that just moved, before any capture), so that the same lessons also fit the static relation terms: the gap
-- between the play search's value and static material, which the one-ply material player reads
-- (src/learn/relationLearning.ts). Lessons kept before this have none (NULL) and teach only the settled terms.
ALTER TABLE relation_lessons ADD COLUMN static REAL;
