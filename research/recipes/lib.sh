# Shared by the recipes (source it from the repository's root; it is not a recipe of its own).

# build_model FILE PGN PLAYER [OPTIONS...]: `morph model` of PLAYER's games in PGN, seed 1, with OPTIONS; its JSON
# summary beside it (FILE without .db, .json). A model already built is kept, so a recipe run again goes on.
build_model() {
  local file=$1 pgn=$2 player=$3
  shift 3
  [ -f "$file" ] || nice -n 5 node bin/morph.js model --pgn "$pgn" --player "$player" --seed 1 "$@" --out "$file" \
    --json --no-progress > "${file%.db}.json"
}

# suite_match OUT NAME DB OPPONENT SEED [OPTIONS...]: DB's Morph against OPPONENT, 200 games from SEED on the balanced
# suite (each opening twice, colours reversed), with OPTIONS; its JSON summary and PGN as OUT/NAME.json and .pgn. A
# match already played is kept, so a recipe run again goes on.
suite_match() {
  local out=$1 name=$2 db=$3 opponent=$4 seed=$5
  shift 5
  [ -s "$out/$name.json" ] || node bin/morph.js match --white "morph:$db" --black "$opponent" --games 200 --seed "$seed" \
    "$@" --openings openings/balanced-6ply.epd --json --pgn "$out/$name.pgn" --no-progress > "$out/$name.json"
}
