#!/usr/bin/env bash
# Graph-pattern terms learned by TreeStrap(minimax) (issue 69 item 2, "the signal"; research/treestrap-terms.ts):
# every position of the first games of a trained database (both sides), its static value (capture-settled material
# plus the graph terms it reads, plus a bias) moved toward the play search's value of it (material-forks, one ply
# deeper: 1 - the best reply's searched value), by SGD on the squared error in log-odds (clipped), shared among the
# matches read, annealed by each term's updates; with --interior also each reply's position toward the value the
# search's looks gave it. The last tenth of the games held out (root mean square of target minus static, with and
# without the terms). Then move quality on the 400 scored positions, paired, no policy: the database as it plays
# (material-forks) without terms, with them, with them shuffled among the patterns (the control); one ply of settled
# material without terms, with them, shuffled; the paper's one-ply player and ab:2 for reference.
# Takes: the targets about 6 s a game on one core under load 5-7 (200 games of roots 21 minutes; with the interior
# nodes, every third position of 240 games 27 minutes beside a second run), the measurement 2-3 minutes; a fit from saved targets (--load) seconds.
#
# 2026-12-05 (session 69): DB = seed 11's 3,000-game checkpoint from fresh with the defaults of main at 03eba32
# (docs/lab/2026-12.md, 2026-12-05; /work/runs/s11.checkpoints/games-003000.db, copied: the script opens it read-only);
# seed 1 (the passes' order and the control's shuffle); branch treestrap.
set -euo pipefail
cd "$(dirname "$0")/../.."
DB=${1:?usage: treestrap-terms.sh DB [OUT_DIR]}
OUT=${2:-out/treestrap-terms}
mkdir -p "$OUT"
P=positions/move-scores.jsonl
T="node bin/run-ts.js research/treestrap-terms.ts --db $DB --positions $P"
# 1. The roots of 200 games, rate .3, errors clipped at 2 log-odds (the first settings; the fit diverged).
[ -s "$OUT/roots-200.jsonl" ] || $T --games 200 --save "$OUT/roots-200.jsonl" | tee -a "$OUT/results.jsonl"
# 2. Settings chosen on the held-out games (fit only, seconds each): rates .3/.1/.03/.01, clip 2 and .5, 3 and 10
#    passes, the bounded read and --read-all.
for args in "--clip 0.5 --rate 0.01 --epochs 30" "--clip 0.5 --rate 0.3 --read-all --epochs 10" "--rate 0.1" "--rate 0.03" "--rate 0.01" "--clip 0.5 --rate 0.1" "--clip 0.5 --rate 0.03" \
  "--clip 0.5 --rate 0.03 --epochs 10" "--clip 0.5 --rate 0.03 --read-all" "--clip 0.5 --rate 0.1 --read-all"; do
  $T --load "$OUT/roots-200.jsonl" --no-measure $args 2>&1 | tail -1 | tee -a "$OUT/fits.txt"
done
# 3. The roots with the chosen settings, measured.
$T --load "$OUT/roots-200.jsonl" --rate 0.03 --clip 0.5 | tee -a "$OUT/results.jsonl"
# 4. TreeStrap's interior nodes too: every reply's position, from every third position of 240 games.
#    (Run as two steps on 2026-12-05: the save, then --load to fit and measure.)
[ -s "$OUT/interior-240.jsonl" ] || $T --games 240 --every 3 --interior --no-measure --save "$OUT/interior-240.jsonl"
$T --load "$OUT/interior-240.jsonl" --rate 0.03 --clip 0.5 | tee -a "$OUT/results.jsonl"
