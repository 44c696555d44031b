#!/usr/bin/env bash
# Soak test of crash safety: starts `morph train` again and again and kills it with SIGKILL at a random moment
# (during start-up, seeding, a game or learning), then checks the database after every kill.
#
#   training/soak-kill.sh ROUNDS [--db FILE] [--opponent SPEC] [--max-wait SECONDS] [--seed N]
#
# Takes: each round trains at most --max-wait (8 s) before its kill, then checks the database: 50 rounds take
# minutes, not hours.
#
# Defaults: a fresh database under tmp/soak/, the default opponent (the embedded Stockfish), kills between 0.3 s
# and 8 s after each start, seed 1 for the kill times (bash's $RANDOM). After each kill it checks:
#   integrity   PRAGMA integrity_check says ok, and the database opens as Morph's;
#   lost        games the killed run had logged to --json-log (written after each game's commit) but the
#               database lacks: a lost saved game; must be 0 (the game in progress is lost by design);
#   numbering   game ids run 1..N without gaps and meta games_played = N;
#   resume      the next run's first game is N+1, and each run records the games it logged;
#   children    whether a child of the killed trainer (its engine; esbuild while the command rebuilds) was
#               still running 1 s after the kill, and which.
# Ends with one clean 1-game run (resume after all the kills) and a summary line. Exit 1 if any check failed.
set -u
cd "$(dirname "$0")/.."

rounds=${1:?usage: training/soak-kill.sh ROUNDS [--db FILE] [--opponent SPEC] [--max-wait SECONDS] [--seed N]}
shift
db=""
opponent="stockfish"
max_wait=8
seed=1
while [ $# -gt 0 ]; do
  case "$1" in
    --db) db=$2; shift 2 ;;
    --opponent) opponent=$2; shift 2 ;;
    --max-wait) max_wait=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    *) echo "soak-kill: unknown option $1" >&2; exit 2 ;;
  esac
done
work=tmp/soak
mkdir -p "$work"
if [ -z "$db" ]; then
  db=$work/soak-$$.db
  rm -f "$db" "$db"-*
fi
RANDOM=$seed

# Prints "integrity games maxid games_played unfinished_runs" for the database (read-only; "missing" if absent).
check_db() {
  node --input-type=module -e '
    import Database from "better-sqlite3";
    import { existsSync } from "node:fs";
    const path = process.argv[1];
    if (!existsSync(path)) { console.log("missing 0 0 0 0"); process.exit(0); }
    const db = new Database(path, { readonly: true });
    try {
      const integrity = db.pragma("integrity_check", { simple: true });
      const has = db.prepare("SELECT count(*) FROM sqlite_master WHERE name = ?").pluck();
      if (!has.get("games")) { console.log(`${integrity} 0 0 0 0`); process.exit(0); }
      const games = db.prepare("SELECT count(*) FROM games").pluck().get();
      const maxId = db.prepare("SELECT coalesce(max(id), 0) FROM games").pluck().get();
      const played = Number(db.prepare("SELECT value FROM meta WHERE key = ?").pluck().get("games_played") ?? 0);
      const unfinished = db.prepare("SELECT count(*) FROM runs WHERE finished_at IS NULL").pluck().get();
      console.log(`${integrity} ${games} ${maxId} ${played} ${unfinished}`);
    } finally { db.close(); }
  ' "$db"
}

# The highest game number in a JSON log (0 if none).
last_logged() {
  if [ -s "$1" ]; then grep -o '"game":[0-9]*' "$1" | tail -1 | cut -d: -f2; else echo 0; fi
}

failures=0
integrity_ok=0
lost_total=0
numbering_ok=0
resume_ok=0
engines_alive=0
kills_before_first_game=0
read -r _ previous_games _ _ _ <<<"$(check_db)"
for round in $(seq 1 "$rounds"); do
  log=$work/round-$$.jsonl
  rm -f "$log"
  node bin/morph.js train --db "$db" --games 100000 --opponent "$opponent" --progress none --json-log "$log" \
    >/dev/null 2>"$work/round-$$.err" &
  pid=$!
  # A kill time in [0.3, max_wait] seconds, from the seeded $RANDOM.
  wait_ms=$((300 + RANDOM * (max_wait * 1000 - 300) / 32768))
  sleep "$(printf '%d.%03d' $((wait_ms / 1000)) $((wait_ms % 1000)))"
  children=$(pgrep -P "$pid" || true)
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  sleep 1
  alive=0
  alive_names=""
  for child in $children; do
    if grep -qs '^State:\s*[RSD]' "/proc/$child/status"; then
      alive=1
      alive_names="$alive_names $(tr '\0' ' ' <"/proc/$child/cmdline" | cut -c1-80)"
      kill -9 "$child" 2>/dev/null
    fi
  done
  engines_alive=$((engines_alive + alive))

  read -r integrity games max_id played unfinished <<<"$(check_db)"
  logged=$(last_logged "$log")
  round_ok=1
  if [ "$integrity" = ok ] || [ "$integrity" = missing ]; then integrity_ok=$((integrity_ok + 1)); else round_ok=0; fi
  lost=0
  if [ "$logged" -gt "$games" ]; then lost=$((logged - games)); round_ok=0; fi
  lost_total=$((lost_total + lost))
  if [ "$games" = "$max_id" ] && [ "$games" = "$played" ]; then numbering_ok=$((numbering_ok + 1)); else round_ok=0; fi
  # Resume: this run started at previous_games + 1, so whatever it logged continues the numbering.
  first_logged=$(if [ -s "$log" ]; then grep -o '"game":[0-9]*' "$log" | head -1 | cut -d: -f2; else echo 0; fi)
  if [ "$first_logged" = 0 ] || [ "$first_logged" = $((previous_games + 1)) ]; then
    resume_ok=$((resume_ok + 1))
  else
    round_ok=0
  fi
  [ "$logged" = 0 ] && kills_before_first_game=$((kills_before_first_game + 1))
  if [ "$round_ok" = 0 ]; then failures=$((failures + 1)); fi
  printf 'round %3d: killed after %5d ms; integrity %s; games %d (run logged up to %d, lost saved %d); child alive after 1 s: %d%s%s\n' \
    "$round" "$wait_ms" "$integrity" "$games" "$logged" "$lost" "$alive" "${alive_names:+ (}${alive_names# }${alive_names:+)}" \
    "$([ "$round_ok" = 1 ] || echo '  FAILED')"
  previous_games=$games
done

# Resume after every kill: one clean game, numbered right after the last saved one.
node bin/morph.js train --db "$db" --games 1 --opponent "$opponent" --progress none --json >"$work/final-$$.json" 2>"$work/round-$$.err"
final_status=$?
read -r integrity games max_id played unfinished <<<"$(check_db)"
# The summary's own firstGame (a rebuilt move policy reports a firstGame of its own inside it).
final_first=$(node -e 'try { process.stdout.write(String(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).firstGame ?? "")) } catch {}' "$work/final-$$.json")
if [ "$final_status" != 0 ] || [ "$integrity" != ok ] || [ "${final_first:-0}" != $((previous_games + 1)) ]; then
  failures=$((failures + 1))
  echo "final run: exit $final_status, integrity $integrity, first game ${final_first:-?} (expected $((previous_games + 1)))"
  cat "$work/round-$$.err"
fi
echo "soak: $rounds kills ($kills_before_first_game before any game was saved); integrity ok $integrity_ok/$rounds;" \
  "saved games lost $lost_total; numbering ok $numbering_ok/$rounds; resume ok $resume_ok/$rounds;" \
  "child process running 1 s after the kill $engines_alive/$rounds; final run exit $final_status, games $games;" \
  "killed runs left unfinished $unfinished; database $db"
rm -f "$work/round-$$.jsonl" "$work/round-$$.err" "$work/final-$$.json"
[ "$failures" = 0 ]
