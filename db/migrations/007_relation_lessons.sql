-- Morph database, schema v7: every lesson of the relation terms (src/learn/relationLearning.ts), kept.
-- A lesson is a position of a training game with its capture-settled material and the play search's deeper value of
-- it, both in log-odds for the side that just moved. The learner fits the relation terms' weights to all of them by
-- least squares, so the weights reflect every game of a run, not where one pass of stochastic steps left them; and a
-- larger feature set can later be fitted to the same lessons. A few rows a game, written in its transaction.
CREATE TABLE relation_lessons (
  id      INTEGER PRIMARY KEY,
  game    INTEGER NOT NULL, -- the training game's number (games_played when it was learned)
  fen     TEXT    NOT NULL,
  settled REAL    NOT NULL, -- capture-settled material, log-odds
  target  REAL    NOT NULL  -- the play search's value one ply deeper, log-odds
);
