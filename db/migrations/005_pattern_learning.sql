-- Morph database, schema v5: the statistics learning changes move to a narrow table of their own.
-- A game's learning rewrites the statistics of about a tenth of the patterns (13,000 of 100,000 in a trained
-- database). In the patterns table each of those rows carries its key and body (about 750 bytes), so a game
-- dirtied most of the table's pages: 50 MB of write-ahead log per game at 100k patterns. Rows of about 40 bytes
-- here put a hundred to a page. patterns keeps what is written once, when a pattern is created; pattern_stats
-- joins the two and keeps the columns it had.
CREATE TABLE pattern_learning (
  id             INTEGER PRIMARY KEY REFERENCES patterns (id) ON DELETE CASCADE,
  weight         REAL    NOT NULL DEFAULT 0.5 CHECK (weight BETWEEN 0 AND 1),
  updates        INTEGER NOT NULL DEFAULT 0,
  variance       REAL    NOT NULL DEFAULT 0,                -- sum of absolute weight changes
  uses           INTEGER NOT NULL DEFAULT 0,
  last_used_game INTEGER
);

INSERT INTO pattern_learning (id, weight, updates, variance, uses, last_used_game)
SELECT id, weight, updates, variance, uses, last_used_game FROM patterns ORDER BY id;

DROP VIEW pattern_stats;
ALTER TABLE patterns DROP COLUMN weight;
ALTER TABLE patterns DROP COLUMN updates;
ALTER TABLE patterns DROP COLUMN variance;
ALTER TABLE patterns DROP COLUMN uses;
ALTER TABLE patterns DROP COLUMN last_used_game;

-- Age (games the pattern has been in the database) is derived rather than stored, so it never goes stale.
CREATE VIEW pattern_stats AS
SELECT p.id, p.kind, p.key, p.body, p.size, l.weight, l.updates, l.variance, l.uses, p.origin, p.created_game,
       l.last_used_game,
       COALESCE((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'games_played'), 0) - p.created_game AS age
FROM patterns AS p JOIN pattern_learning AS l ON l.id = p.id;
