-- Morph database, schema v2: link mappings are no longer kept.
-- A link's mapping was computed on the patterns' in-memory node order, but a loaded pattern's nodes follow its
-- canonical key, so most stored mappings did not map the nodes they name (14230 of 17471 in one trained
-- database), and nothing ever read them. They are cleared here, and Morph writes NULL from now on; the column
-- stays so that this migration needs no table rebuild.
UPDATE links SET mapping = NULL;
