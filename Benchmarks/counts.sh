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
  local counted=$WORK/counted/clumsy
  count midi "" -- "$counted" run default --duration "$COUNT_SIM" --midi x.mid --quiet
  local midi share
  midi=$(cat midi.ir)
  share=$(python3 "$ROOT/Benchmarks/chipmunk_share.py" midi.callgrind)
  ratio 0a "instructions of clumsy run default, MIDI only, per simulated second (callgrind)" "$midi" "$COUNT_SIM" instructions
  row "0a Instructions, MIDI only: ${COUNT_SIM} s of \`default\`" \
      "\`valgrind --tool=callgrind clumsy run default --duration $COUNT_SIM --midi x.mid --quiet\`" \
      "$(millions "$midi") M instructions ($(millions "$(calc "$midi / $COUNT_SIM")") M per simulated second)" \
      "share inside Chipmunk (libchipmunk's own instructions, not the libm or callbacks it calls; Benchmarks/chipmunk_share.py)" "$share" \
      "gated: ≤ 3 % more than Benchmarks/last.json" "Chipmunk ≥ 0.85"
  count swarm "" -- "$counted" run swarm --duration "$COUNT_SWARM" --midi x.mid --quiet
  local swarm
  swarm=$(cat swarm.ir)
  share=$(python3 "$ROOT/Benchmarks/chipmunk_share.py" swarm.callgrind)
  ratio 0b "instructions of clumsy run swarm, MIDI only, per simulated second (callgrind)" "$swarm" "$COUNT_SWARM" instructions
  row "0b Instructions, swarm MIDI only: ${COUNT_SWARM} s of \`swarm\`" \
      "\`valgrind --tool=callgrind clumsy run swarm --duration $COUNT_SWARM --midi x.mid --quiet\`" \
      "$(millions "$swarm") M instructions ($(millions "$(calc "$swarm / $COUNT_SWARM")") M per simulated second)" \
      "inside Chipmunk, as above" "$share" "gated: ≤ 3 % more than Benchmarks/last.json" "—"
  count_plugin
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
