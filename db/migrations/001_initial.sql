-- Morph database, schema v1.
-- Applied by src/store/database.ts inside one transaction that also sets PRAGMA user_version = 1.
-- Later changes go in new numbered files (002_..., 003_...); never edit a migration that has shipped.

-- Run metadata as text: games_played, temperature, seed, rng_state, config (JSON), created_at, morph_version.
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

INSERT INTO meta (key, value) VALUES
  ('games_played', '0'),
  ('created_at', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));

-- One row per pattern (graph or material). body is the pattern as JSON, key its canonical form.
-- origin is deliberately not CHECKed (the TypeScript type lists the values) so a new learning method needs no
-- table rebuild.
CREATE TABLE patterns (
  id             INTEGER PRIMARY KEY,
  kind           TEXT    NOT NULL CHECK (kind IN ('graph', 'material')),
  key            TEXT    NOT NULL UNIQUE,
  body           TEXT    NOT NULL,
  size           INTEGER NOT NULL CHECK (size >= 0),        -- node count; 0 for material patterns
  weight         REAL    NOT NULL DEFAULT 0.5 CHECK (weight BETWEEN 0 AND 1),
  updates        INTEGER NOT NULL DEFAULT 0,
  variance       REAL    NOT NULL DEFAULT 0,                -- sum of absolute weight changes
  uses           INTEGER NOT NULL DEFAULT 0,
  origin         TEXT    NOT NULL,                          -- seed, forward, reverse, regression, generalisation,
                                                            -- specialisation, material, manual
  created_game   INTEGER NOT NULL,
  last_used_game INTEGER
);

-- Age (games the pattern has been in the database) is derived rather than stored, so it never goes stale.
CREATE VIEW pattern_stats AS
SELECT p.*,
       COALESCE((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'games_played'), 0) - p.created_game AS age
FROM patterns AS p;

-- The subpattern partial order (transitive reduction): parent is more general, child more specific.
-- mapping is a JSON array: for each parent node, the index of the child node it maps to.
CREATE TABLE links (
  parent  INTEGER NOT NULL REFERENCES patterns (id) ON DELETE CASCADE,
  child   INTEGER NOT NULL REFERENCES patterns (id) ON DELETE CASCADE,
  mapping TEXT,
  PRIMARY KEY (parent, child),
  CHECK (parent <> child)
) WITHOUT ROWID;

CREATE INDEX links_by_child ON links (child);

CREATE TABLE runs (
  id          INTEGER PRIMARY KEY,
  started_at  TEXT,
  finished_at TEXT,
  opponent    TEXT,
  seed        INTEGER,
  config      TEXT,                                         -- JSON
  first_game  INTEGER,
  games       INTEGER NOT NULL DEFAULT 0,
  stop_reason TEXT
);

CREATE TABLE games (
  id             INTEGER PRIMARY KEY,
  run_id         INTEGER REFERENCES runs (id) ON DELETE SET NULL,
  started_at     TEXT,
  finished_at    TEXT,
  morph_color    TEXT CHECK (morph_color IN ('w', 'b')),
  opponent       TEXT,
  result         TEXT CHECK (result IN ('1-0', '0-1', '1/2-1/2')),
  morph_score    REAL CHECK (morph_score IN (0, 0.5, 1)),
  reason         TEXT,                                      -- checkmate, stalemate, insufficient, threefold,
                                                            -- fifty-move, ply-limit, ...
  plies          INTEGER,
  final_material REAL,                                      -- pawn units from Morph's side (P1 N3 B3 R5 Q9)
  patterns       INTEGER,                                   -- pattern count after learning from this game
  seconds        REAL,
  seed           INTEGER,
  pgn            TEXT
);

CREATE INDEX games_by_run ON games (run_id);

-- A few recent positions each pattern matched (the writer keeps this small). game_id has no foreign key because
-- positions are recorded while a game is played, before its games row exists.
CREATE TABLE pattern_positions (
  pattern_id INTEGER REFERENCES patterns (id) ON DELETE CASCADE,
  game_id    INTEGER,
  fen        TEXT
);

CREATE INDEX pattern_positions_by_pattern ON pattern_positions (pattern_id);

-- Learning counters: patterns created per method, deleted, etc.
CREATE TABLE learning_counters (
  name  TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) WITHOUT ROWID;
