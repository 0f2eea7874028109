# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later

# Row 0 of Benchmarks/bench.sh (sourced by it, in its work directory, with its helpers): the
# instructions a session executes, counted by valgrind's callgrind, for the MIDI row (`default`),
# the swarm row and the LV2 plugin's block (Tools/lv2host.c, counting inside run() only).
#
# Counts, not times: a busy machine slows a run by 15-70 % and changes its count by nothing
# (perf stat -e instructions:u would be faster, but this machine's kernel gives no counter to a
# container: "<not supported>"). So the gate holds them to 3 % (Benchmarks/ratios.py), where
# the timed rows need 15 %. Each is a single run: two runs of one build differ by a few
# instructions in a billion (the environment's length, the work directory's name).
#
# The binaries are copies stripped of DWARF: valgrind 3.19 reads no DWARF 5 (the code, and
# so the count, is the same). SWIFT_DETERMINISTIC_HASHING=1: the same hash seed every run.

VALGRIND=${VALGRIND:-valgrind}

# count NAME EXTRA -- COMMAND…: COMMAND's instructions under callgrind (EXTRA: more valgrind
# options, or "") into NAME.ir, its profile in NAME.callgrind.
count() {
  local name=$1 extra=$2
  shift 3
  log "  valgrind --tool=callgrind $extra $(shown "$@")"
  # shellcheck disable=SC2086 # EXTRA is zero or more options
  SWIFT_DETERMINISTIC_HASHING=1 "$VALGRIND" --tool=callgrind --callgrind-out-file="$name.callgrind" $extra "$@" \
    >/dev/null 2>"$name.err" || { log "bench: failed under valgrind: $(shown "$@")"; tail -n 20 "$name.err" >&2; exit 1; }
  sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$name.err" >"$name.ir"
  [[ -s $name.ir ]] || { log "bench: callgrind counted nothing for $(shown "$@")"; tail -n 20 "$name.err" >&2; exit 1; }
}

# millions N: N instructions in millions, one decimal.
millions() { fmt 1 "$(calc "$1 / 1000000")"; }

count_rows() {
  command -v "$VALGRIND" >/dev/null || { log "bench: valgrind is missing (apt-get install valgrind)"; exit 1; }
  mkdir -p counted
  # The smoke run (make test, the debug build) counts the plugin's block alone: the debug
  # build's start-up is two billion instructions, a minute under valgrind for each session row.
  if [[ $MODE == smoke ]]; then
    log "0. instructions (valgrind --tool=callgrind; ${COUNT_LV2} s of the plugin's swarm)"
    count_plugin
    return
  fi
  log "0. instructions (valgrind --tool=callgrind; ${COUNT_SIM} s of default, ${COUNT_SWARM} s of swarm, ${COUNT_LV2} s of the plugin's swarm)"
  strip --strip-debug -o counted/clumsy "$CLUMSY"
  count_session 0a midi default "$COUNT_SIM" "MIDI only" \
      "share inside Chipmunk (libchipmunk's own instructions, not the libm or callbacks it calls; Benchmarks/chipmunk_share.py)" "Chipmunk ≥ 0.85"
  count_session 0b swarm swarm "$COUNT_SWARM" "swarm MIDI only" "inside Chipmunk, as above" "—"
  count_plugin
}

# count_session ROW NAME PRESET SECONDS WHAT SHARE-LABEL GOAL: one MIDI-only session of PRESET
# under callgrind, its instructions per simulated second gated (ratios.py) and its table row.
count_session() {
  local row=$1 name=$2 preset=$3 seconds=$4 what=$5 label=$6 goal=$7
  count "$name" "" -- "$WORK/counted/clumsy" run "$preset" --duration "$seconds" --midi x.mid --quiet
  local total share
  total=$(cat "$name.ir")
  share=$(python3 "$ROOT/Benchmarks/chipmunk_share.py" "$name.callgrind")
  ratio "$row" "instructions of clumsy run $preset, MIDI only, per simulated second (callgrind)" "$total" "$seconds" instructions
  row "$row Instructions, $what: $seconds s of \`$preset\`" \
      "\`valgrind --tool=callgrind clumsy run $preset --duration $seconds --midi x.mid --quiet\`" \
      "$(millions "$total") M instructions ($(millions "$(calc "$total / $seconds")") M per simulated second)" \
      "$label" "$share" "gated: ≤ 3 % more than Benchmarks/last.json" "$goal"
}

# The plugin's block: lv2host (Tools/lv2host.c) toggles callgrind's counting around each run().
count_plugin() {
  [[ -f $LV2_LIBRARY ]] || { log "bench: $LV2_LIBRARY is missing; build it first (make bench builds it)"; exit 1; }
  cc -O2 -rdynamic -o counted/lv2host "$ROOT/Tools/lv2host.c" $(pkg-config --cflags --libs lilv-0)
  strip --strip-debug -o counted/libClumsyLV2.so "$LV2_LIBRARY"
  python3 "$ROOT/Tools/lv2bundle.py" counted/libClumsyLV2.so "$ROOT/Presets" counted/clumsy.lv2
  local index blocks plugin
  index=$(grep -n '^swarm$' counted/clumsy.lv2/presets.txt | cut -d: -f1 | awk '{print $1 - 1}')
  count plugin --collect-atstart=no -- counted/lv2host counted/clumsy.lv2 "$COUNT_LV2" --preset "$index"
  plugin=$(cat plugin.ir)
  # lv2host's blocks: 256 frames at 48 kHz until COUNT_LV2 seconds are covered.
  blocks=$(awk -v s="$COUNT_LV2" 'BEGIN { t = int(s * 48000); print int((t + 255) / 256) }')
  ratio 0c "instructions inside the LV2 plugin's run(), swarm, per 256-frame block (callgrind)" "$plugin" "$blocks" instructions
  row "0c Instructions, LV2 plugin: run() per 256-frame block, ${COUNT_LV2} s of \`swarm\`" \
      "\`valgrind --tool=callgrind --collect-atstart=no lv2host clumsy.lv2 $COUNT_LV2 --preset $index\` (Tools/lv2host.c counts inside run())" \
      "$(millions "$plugin") M instructions in $blocks blocks: $(fmt 0 "$(calc "$plugin / $blocks")") a block" \
      "—" "—" "gated: ≤ 3 % more than Benchmarks/last.json" "—"
}
