-- Morph database, schema v4: which weights each training game was played with.
-- snapshot is the number of games learned in the weights Morph played the game with: game number - 1 when the
-- game was played on the live database (morph train --jobs 1), less when a game worker of --jobs N played it on
-- an older read-only snapshot. NULL for games recorded before v4.
ALTER TABLE games ADD COLUMN snapshot INTEGER;
