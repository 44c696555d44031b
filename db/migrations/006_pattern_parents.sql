-- Morph database, schema v6: the subpattern links become one row per pattern, naming its parents.
-- A game's learning adds and removes thousands of links (deleting a pattern links each of its parents to each of
-- its children; a new general pattern links to every pattern below it). Kept as one row per link, in a table
-- ordered by parent and an index ordered by child, those changes fell on most pages of both: at 100k patterns
-- (351k links) 2,100 of the 3,800 pages a game wrote to the write-ahead log. Here a pattern's parents are one
-- JSON array of ids, ascending, in a narrow table keyed by the pattern; a game rewrites the rows of the patterns
-- whose parents changed, and a deleted pattern's row goes with it. Roots have no row.
CREATE TABLE pattern_parents (
  id      INTEGER PRIMARY KEY REFERENCES patterns (id) ON DELETE CASCADE,
  parents TEXT    NOT NULL -- JSON array of parent ids, ascending
);

INSERT INTO pattern_parents (id, parents)
SELECT child, json_group_array(parent ORDER BY parent) FROM links GROUP BY child ORDER BY child;

DROP TABLE links;

-- One row per link (parent more general, child more specific), for readers: inspect, export and other tools.
CREATE VIEW links AS
SELECT CAST(j.value AS INTEGER) AS parent, p.id AS child
FROM pattern_parents AS p, json_each(p.parents) AS j;
