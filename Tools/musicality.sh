#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later
set -uo pipefail
cd "$(dirname "$0")/.."

BIN=${BIN:-.build/release/clumsy}
WORK=${WORK:-.build/musicality}
SEEDS=${SEEDS:-1 2 3}
DURATION=${DURATION:-180}
JOBS=${JOBS:-2}
FORCE=${FORCE:-0}
if [ -z "${PRESETS:-}" ]; then
  PRESETS=$(for f in Presets/*.json; do basename "$f" .json; done | tr '\n' ' ')
  ALL=1
else
  ALL=0
fi

[ -x "$BIN" ] || { echo "no $BIN: build it first (make release)" >&2; exit 1; }
RENDERS="$WORK/renders-${DURATION}s"
mkdir -p "$RENDERS/partial" "$RENDERS/logs"

python3 Tools/export_corpora.py --out "$WORK/corpora" || exit 1

# One render: NAME SEED. Written into partial/ and moved in place when complete, so an interrupted
# run leaves no half file that looks done; skipped when newer than the binary and the preset.
render() {
  local name=$1 seed=$2 stem="$RENDERS/$1-$2" preset="Presets/$1.json"
  if [ "$FORCE" != 1 ] && [ "$stem.mid" -nt "$BIN" ] && [ "$stem.wav" -nt "$BIN" ] &&
     { [ ! -f "$preset" ] || [ "$stem.mid" -nt "$preset" ]; }; then
    return 0
  fi
  local start=$SECONDS
  if "$BIN" run "$name" --duration "$DURATION" --seed "$seed" \
       --midi "$RENDERS/partial/$name-$seed.mid" --audio "$RENDERS/partial/$name-$seed.wav" --quiet \
       >"$RENDERS/logs/$name-$seed.log" 2>&1; then
    mv -f "$RENDERS/partial/$name-$seed.mid" "$stem.mid" && mv -f "$RENDERS/partial/$name-$seed.wav" "$stem.wav"
    echo "rendered $name seed $seed in $((SECONDS - start)) s" >&2
  else
    echo "FAILED: $name seed $seed (see $RENDERS/logs/$name-$seed.log)" >&2
    return 1
  fi
}
export -f render
export BIN RENDERS DURATION FORCE

start=$SECONDS
status=0
for name in $PRESETS; do for seed in $SEEDS; do echo "$name $seed"; done; done |
  xargs -P "$JOBS" -n 2 bash -c 'render "$0" "$1"' || status=1
echo "renders: $((SECONDS - start)) s" >&2

if [ "$ALL" = 1 ] && [ "$SEEDS" = "1 2 3" ] && [ "$DURATION" = 180 ]; then
  command="make musicality"
else
  command="PRESETS=\"${PRESETS% }\" SEEDS=\"$SEEDS\" DURATION=$DURATION Tools/musicality.sh"
fi
python3 Tools/musicality.py "$RENDERS" --work "$WORK" --jobs "$JOBS" --only $PRESETS --seeds $SEEDS \
  --command "$command" || status=1
exit $status
