-- Morph database, schema v3: strength measured at training checkpoints (the learning curve).
-- One row per checkpoint and measurement: a match against an opponent (score, Elo and its 95% interval) or move
-- quality on a labelled position set (mean win-chance loss, blunder share, top-4 agreement). Written by
-- training/recipes/curve.sh, read by `morph report`.
CREATE TABLE checkpoint_results (
  trained_games INTEGER NOT NULL,
  measure TEXT NOT NULL CHECK (measure IN ('match', 'quality')),
  against TEXT NOT NULL,
  samples INTEGER NOT NULL,
  score REAL, elo REAL, elo_low REAL, elo_high REAL,
  mean_loss REAL, loss_low REAL, loss_high REAL,
  blunder REAL, blunder_low REAL, blunder_high REAL,
  top4 REAL,
  checkpoint TEXT NOT NULL,
  measured_at TEXT NOT NULL
);
