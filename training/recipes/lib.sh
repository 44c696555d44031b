# Shared by the opponent-model recipes (source it from the repository's root; it is not a recipe of its own).

# build_model FILE PGN PLAYER [OPTIONS...]: `morph model` of PLAYER's games in PGN, seed 1, with OPTIONS; its JSON
# summary beside it (FILE without .db, .json). A model already built is kept, so a recipe run again goes on.
build_model() {
  local file=$1 pgn=$2 player=$3
  shift 3
  [ -f "$file" ] || nice -n 5 node bin/morph.js model --pgn "$pgn" --player "$player" --seed 1 "$@" --out "$file" \
    --json --no-progress > "${file%.db}.json"
}
