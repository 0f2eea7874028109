#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later

# Clumsy's benchmarks: `make bench` (full, under ten minutes) and `make bench-smoke`
# (--smoke: the same code with tiny durations and one repetition, seconds in total).
#
# Prints one Markdown table: for every comparison the command lines of both sides, each
# figure the median of the repetitions made (n = how many). Whole commands are timed
# here with the built `clumsy`; the in-process comparison (bare Chipmunk stepping versus
# the full Simulator on the same Configuration) is `clumsy-bench`.
#
# Environment: BIN_DIR (default .build/release) or CLUMSY / CLUMSY_BENCH / LV2_LIBRARY for the two
# executables and the plugin's library; SOUNDFONT (default Debian's FluidR3_GM.sf2); FLUIDSYNTH (fluidsynth).
# Every repetition count is a maximum: a measurement stops repeating once it has used
# its time cap, so a slow machine (or a slow build) still finishes.

set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
ROOT=$PWD
ROOT=$PWD

MODE=full CHECK=0 COUNTS_ONLY=0
for option in "$@"; do
  case "$option" in
    --smoke) MODE=smoke ;;
    --check) CHECK=1 ;;   # make bench-check: the full rows again, compared with Benchmarks/last.json
    # Only the instruction counts (row 0): with --check compared with last.json's, else written
    # into it beside the timed rows already there (make bench-counts).
    --instructions) COUNTS_ONLY=1 ;;
    *) echo "usage: $0 [--smoke | --check] [--instructions]" >&2; exit 64 ;;
  esac
done

BIN_DIR=${BIN_DIR:-.build/release}
CLUMSY=$(realpath "${CLUMSY:-$BIN_DIR/clumsy}")
BENCH=$(realpath "${CLUMSY_BENCH:-$BIN_DIR/clumsy-bench}")
LV2_LIBRARY=$(realpath -m "${LV2_LIBRARY:-$BIN_DIR/libClumsyLV2.so}")
SOUNDFONT=${SOUNDFONT:-/usr/share/sounds/sf2/FluidR3_GM.sf2}
FLUIDSYNTH=${FLUIDSYNTH:-fluidsynth}
TIME=/usr/bin/time
for tool in "$CLUMSY" "$BENCH"; do
  [[ -x $tool ]] || { echo "bench: $tool is missing; build it first (make bench builds it)" >&2; exit 1; }
done
command -v "$FLUIDSYNTH" >/dev/null || { echo "bench: the fluidsynth command is missing (apt-get install fluidsynth)" >&2; exit 1; }
[[ -x $TIME ]] || { echo "bench: /usr/bin/time is missing (apt-get install time)" >&2; exit 1; }
[[ -r $SOUNDFONT ]] || { echo "bench: SoundFont $SOUNDFONT not found (apt-get install fluid-soundfont-gm)" >&2; exit 1; }
# Clumsy and the fluidsynth command must use the same SoundFont.
export CLUMSY_SOUNDFONT=$SOUNDFONT

if [[ $MODE == full ]]; then
  COUNT_SIM=600 COUNT_SWARM=2 COUNT_LV2=2 # 0. instructions counted by valgrind
  SIM=3600 SIM_REPS=7 INPROC_REPS=9       # 1. one simulated hour of `default`
  AUDIO=600 AUDIO_REPS=5                  # 2. ten minutes of audio
  SWARM=20 SWARM_REPS=5                   # 3. the swarm
  DAY=86400 MEM_AUDIO=60                  # 4. memory: 24 h MIDI only, 60 s audio
  STARTUP_REPS=100                        # 5. start-up (about 5 s in all)
  VIDEO=60 VIDEO_REPS=3 VIDEO_SIZE=1280x720 # 6. a video of the default session
  BATCH_MIDI=100 BATCH_AUDIO=20 BATCH_REPS=3 # 7. batches: 100 MIDI-only items of 120 s, 20 audio items of 30 s
  LV2_SECONDS=60                          # 8. the LV2 plugin's run()
  STOP_REPS=5                             # 9. SIGINT to exit, each output
  CAP=60                                  # seconds a measurement may spend repeating
else
  COUNT_SIM=2 COUNT_SWARM=0.05 COUNT_LV2=0.05
  SIM=30 SIM_REPS=1 INPROC_REPS=1
  AUDIO=2 AUDIO_REPS=1
  SWARM=0.25 SWARM_REPS=1
  DAY=30 MEM_AUDIO=2
  STARTUP_REPS=2
  VIDEO=1 VIDEO_REPS=1 VIDEO_SIZE=320x180
  BATCH_MIDI=4 BATCH_AUDIO=2 BATCH_REPS=1
  LV2_SECONDS=1 STOP_REPS=1
  CAP=5
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/clumsy-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
START=$EPOCHREALTIME

log() { printf '%s\n' "$*" >&2; }

# calc EXPR: floating-point arithmetic through awk.
calc() { awk "BEGIN { print ($1) }"; }
# fmt DECIMALS VALUE
fmt() { awk -v d="$1" -v v="$2" 'BEGIN { printf "%.*f", d, v }'; }
median() { sort -g "$1" | awk '{ a[NR] = $1 } END { if (NR == 0) exit 1; print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
maximum() { sort -g "$1" | tail -n 1; }
# shown COMMAND…: the command as printed in the table (tool paths shortened).
shown() {
  local text="$*"
  text=${text//$CLUMSY/clumsy}
  text=${text//$BENCH/clumsy-bench}
  text=${text//$SOUNDFONT/\/usr\/share\/sounds\/sf2\/$(basename "$SOUNDFONT")}
  [[ -n ${FAKE_PATH:-} ]] && text=${text//$FAKE_PATH/fakebin:\$PATH}
  printf '%s' "$text"
}

# measure NAME REPS -- COMMAND…: runs COMMAND up to REPS times (fewer once CAP seconds
# are spent), recording wall seconds in NAME.wall, CPU seconds (user + system) in NAME.cpu
# and peak RSS (KiB) in NAME.rss.
# With NOTIME=1 the command runs without /usr/bin/time (start-up: no extra fork).
measure() {
  local name=$1 reps=$2; shift 3
  # APPEND=1 adds to the earlier runs of NAME (to alternate two commands, one run at a time).
  [[ ${APPEND:-0} == 1 ]] || { : >"$name.wall"; : >"$name.rss"; : >"$name.cpu"; }
  printf '%s' "$(shown "$@")" >"$name.cmd"
  # An alternated measurement (APPEND=1) was named at its first run.
  [[ ${APPEND:-0} == 1 ]] || log "  $(shown "$@")"
  local spent=0 i t0 t1 wall
  for ((i = 0; i < reps; i++)); do
    # Every run writes new files, as fluidsynth does: Clumsy syncs a file that replaces an
    # earlier one to disk before the rename (OutputFile), which fluidsynth never does.
    local argument
    for argument in "$@"; do [[ $argument == x.wav || $argument == x.mid || $argument == batch-out ]] && rm -rf "$argument"; done
    t0=$EPOCHREALTIME
    if [[ ${NOTIME:-0} == 1 ]]; then
      "$@" >/dev/null 2>"$name.err" || { log "bench: failed: $(shown "$@")"; cat "$name.err" >&2; exit 1; }
    else
      "$TIME" -f '%M %U %S' -o "$name.time" "$@" >/dev/null 2>"$name.err" || { log "bench: failed: $(shown "$@")"; cat "$name.err" >&2; exit 1; }
      tail -n 1 "$name.time" | awk '{ print $1 }' >>"$name.rss"
      tail -n 1 "$name.time" | awk '{ print $2 + $3 }' >>"$name.cpu"
    fi
    t1=$EPOCHREALTIME
    wall=$(calc "$t1 - $t0")
    echo "$wall" >>"$name.wall"
    spent=$(calc "$spent + $wall")
    [[ $(calc "$spent > $CAP") == 1 ]] && break
  done
  return 0
}
wall() { median "$1.wall"; }
cpu() { median "$1.cpu"; }
# seconds NAME DURATION: "W s = R× real time (CPU C s, n=N)"
seconds() { echo "$(fmt 2 "$(wall "$1")") s = $(rate "$2" "$(wall "$1")")× real time (CPU $(fmt 2 "$(cpu "$1")") s, n=$(runs "$1"))"; }
runs() { wc -l <"$1.wall" | tr -d ' '; }
rss_mb() { fmt 1 "$(calc "$(maximum "$1.rss") / 1024")"; }
cmd() { cat "$1.cmd"; }

# tier_text FILE TIER DURATION: a clumsy-bench tier as "W s = R× real time (CPU C s, n=N)"
tier_text() {
  local w; w=$(value "$1" "$2" wall)
  echo "$(fmt 2 "$w") s = $(rate "$3" "$w")× real time (CPU $(fmt 2 "$(value "$1" "$2" cpu)") s, n=$(value "$1" "$2" samples | tr ',' '\n' | wc -l | tr -d ' '))"
}
# Bench values from clumsy-bench output: value FILE TIER KEY
value() { awk -v tier="tier=$2" -v key="$3" '$1 == tier { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == key) print kv[2] } }' "$1"; }

# The gate's rows (Benchmarks/ratios.py): ratio KEY WHAT VALUE BASELINE UNIT RATIO: the two
# sides' medians, and their ratio measured pair by pair. Every gated row runs its two sides turn
# about, and RATIO is the median of each run's ratio to the baseline run beside it: this
# machine's speed moves in bursts (fifteen in-process runs of one build took 1.16 to 1.89 s), so
# a block of one side then a block of the other, or the fastest of each, measured the burst.
# Lower is better for every ratio.
: >"$WORK/ratios.tsv"
ratio() { printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$WORK/ratios.tsv"; }
# paired A B: the median of A's i-th run over B's i-th run (files A.wall and B.wall).
paired() { paste "$1.wall" "$2.wall" | awk '$2 > 0 { print $1 / $2 }' >"$1-$2.ratio" && median "$1-$2.ratio"; }
# samples FILE TIER: a clumsy-bench tier's runs, one a line (its repetitions interleave the tiers).
samples() { value "$1" "$2" samples | tr ',' '\n'; }

ROWS=()
row() {
  local line="|" cell
  for cell in "$@"; do line+=" $cell |"; done
  ROWS+=("$line")
}
rate() { fmt 1 "$(calc "$1 / $2")"; }            # simulated s / wall s
pct() { fmt 0 "$(calc "100 * $1 / $2")"; }

log "clumsy bench ($MODE): $(shown "$CLUMSY"), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

# 0. Instructions ---------------------------------------------------------------------------
# Counted, not timed (Benchmarks/counts.sh): the same count on a busy machine as on an idle one,
# so the gate holds these rows to 3 % (Benchmarks/ratios.py).
source "$ROOT/Benchmarks/counts.sh"
count_rows
if [[ $COUNTS_ONLY == 1 ]]; then
  python3 "$ROOT/Benchmarks/ratios.py" write counts.json "$WORK/ratios.tsv" "$MODE"
  LAST=$ROOT/Benchmarks/last.json
  printf '%s\n' "${ROWS[@]}"
  if [[ $CHECK == 1 ]]; then
    python3 "$ROOT/Benchmarks/ratios.py" check "$LAST" counts.json --unit instructions
  elif [[ $MODE == full ]]; then
    python3 "$ROOT/Benchmarks/ratios.py" merge "$LAST" counts.json && log "bench: wrote the instruction counts into $LAST"
  else
    python3 "$ROOT/Benchmarks/ratios.py" check counts.json counts.json >&2
  fi
  exit
fi

# 1. Simulation, MIDI only ---------------------------------------------------------------
log "1. simulation, MIDI only (${SIM} s of default)"
# Every gated row alternates its two sides run by run (as row 2a always did): this machine's
# speed drifts by 10-40 % over minutes, and a block of one side, then a block of the other,
# measured the drift. Row 1's baseline is a bare-Chipmunk run of its own between its runs.
: >bare1.wall
for ((rep = 0; rep < SIM_REPS; rep++)); do
  APPEND=$((rep > 0)) measure sim 1 -- "$CLUMSY" run default --duration "$SIM" --midi x.mid --quiet
  "$BENCH" --preset default --duration "$SIM" --repetitions 1 --tiers bare >bare1.txt
  value bare1.txt bare wall >>bare1.wall
done
[[ -s x.mid ]] || { log "bench: no MIDI written"; exit 1; }
INPROC=(--preset default --duration "$SIM" --repetitions "$INPROC_REPS")
log "  $(shown "$BENCH" "${INPROC[@]}")"
"$BENCH" "${INPROC[@]}" >inproc.txt
cat inproc.txt >&2
for tier in bare world simulator midi share; do
  [[ -n $(value inproc.txt $tier wall) ]] || { log "bench: clumsy-bench gave no $tier result"; exit 1; }
done
header() { awk -v key="$2" 'NR == 1 { for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == key) print kv[2] } }' "$1"; }
SUBSTEPS=$(header inproc.txt substeps)
TIMESTEP=$(header inproc.txt timestep)
BARE_WALL=$(value inproc.txt bare wall)
SIM_WALL=$(wall sim)
row "1 Simulation, MIDI only: ${SIM} s of \`default\`" \
    "\`$(cmd sim)\`" "$(seconds sim "$SIM")" \
    "bare Chipmunk stepping of the same world, in process: \`$(shown "$BENCH" "${INPROC[@]}")\` tier bare (same bodies, timestep ${TIMESTEP} s, sub-steps per step: ${SUBSTEPS}; no handlers, rules, music or output)" \
    "$(tier_text inproc.txt bare "$SIM")" \
    "Clumsy = $(pct "$BARE_WALL" "$SIM_WALL") % of bare (CPU: $(pct "$(value inproc.txt bare cpu)" "$(cpu sim)") %)" "≥ 80 %"
ratio 1 "clumsy run default, MIDI only, against bare Chipmunk stepping in process (runs alternated)" "$SIM_WALL" "$(median bare1.wall)" s "$(paired sim bare1)"
MIDI_WALL=$(value inproc.txt midi wall)
row "1b the same, in process" \
    "\`$(shown "$BENCH" "${INPROC[@]}")\` tier midi (Simulator + MIDIRecorder)" "$(tier_text inproc.txt midi "$SIM")" \
    "tier bare, as above" "$(fmt 2 "$BARE_WALL") s = $(rate "$SIM" "$BARE_WALL")×" \
    "Clumsy = $(pct "$BARE_WALL" "$MIDI_WALL") % of bare (CPU: $(pct "$(value inproc.txt bare cpu)" "$(value inproc.txt midi cpu)") %)" "≥ 80 %"
samples inproc.txt midi >midi1.wall
samples inproc.txt bare >bare1b.wall
ratio 1b "Simulator + MIDIRecorder in process, against bare Chipmunk stepping (runs interleaved)" "$MIDI_WALL" "$BARE_WALL" s "$(paired midi1 bare1b)"
SHARE_WALL=$(value inproc.txt share wall)
CHIP_WALL=$(value inproc.txt share chipmunk_wall)
row "1c the same trajectory: time inside Chipmunk" \
    "tier share (tier midi with \`Simulator(…, timesChipmunk: true)\`)" "$(tier_text inproc.txt share "$SIM")" \
    "of which inside \`cpSpaceStep\` (collision callbacks included)" "$(fmt 2 "$CHIP_WALL") s = $(rate "$SIM" "$CHIP_WALL")×" \
    "Chipmunk = $(pct "$CHIP_WALL" "$SHARE_WALL") % of the run; Clumsy's own overhead $(pct "$(calc "$SHARE_WALL - $CHIP_WALL")" "$CHIP_WALL") % of bare" "≥ 80 % (overhead ≤ 25 %)"

# 2. Audio render --------------------------------------------------------------------------
log "2. audio render (${AUDIO} s of default)"
FS_BASE=("$FLUIDSYNTH" -ni -F out.wav -r 44100 -C 0)
# The MIDI files of the very sessions rendered below: same preset, duration and effect flags.
"$CLUMSY" run default --duration "$AUDIO" --dry --audio prep.wav --midi session-dry.mid --quiet
"$CLUMSY" run default --duration "$AUDIO" --audio prep.wav --midi session-fx.mid --quiet
# Row 2a alternates the two commands run by run: this machine's speed drifts by ±10 % over
# minutes, and a block of runs of one command, then a block of the other, measured the drift.
for ((rep = 0; rep < AUDIO_REPS; rep++)); do
  APPEND=$((rep > 0)) measure dry 1 -- "$CLUMSY" run default --duration "$AUDIO" --audio x.wav --dry
  APPEND=$((rep > 0)) measure fsdry 1 -- "${FS_BASE[@]}" -R 0 "$SOUNDFONT" session-dry.mid
done
DRY_SECONDS=$(fmt 1 "$(soxi -D x.wav)")
FS_SECONDS=$(fmt 1 "$(soxi -D out.wav)")
measure dryraw "$AUDIO_REPS" -- "$CLUMSY" run default --duration "$AUDIO" --audio x.wav --dry --loudness off
for ((rep = 0; rep < AUDIO_REPS; rep++)); do
  APPEND=$((rep > 0)) measure fx 1 -- "$CLUMSY" run default --duration "$AUDIO" --audio x.wav
  APPEND=$((rep > 0)) measure fsfx 1 -- "${FS_BASE[@]}" -R 1 "$SOUNDFONT" session-fx.mid
done
measure filter "$AUDIO_REPS" -- "$CLUMSY" run default --duration "$AUDIO" --audio x.wav --delay off --reverb off --filter 1500
measure delay "$AUDIO_REPS" -- "$CLUMSY" run default --duration "$AUDIO" --audio x.wav --reverb off
measure reverb "$AUDIO_REPS" -- "$CLUMSY" run default --duration "$AUDIO" --audio x.wav --delay off
DRY=$(wall dry) FSDRY=$(wall fsdry)
ratio 2a "dry audio render, against fluidsynth on the same MIDI (runs alternated)" "$DRY" "$FSDRY" s "$(paired dry fsdry)"
row "2a Audio, dry: ${AUDIO} s of \`default\`" \
    "\`$(cmd dry)\`" "$(seconds dry "$AUDIO")" \
    "\`$(cmd fsdry)\` on the MIDI of that session (\`clumsy run default --duration $AUDIO --dry --audio … --midi session-dry.mid\`)" \
    "$(seconds fsdry "$AUDIO")" \
    "Clumsy takes $(fmt 2 "$(calc "$DRY / $FSDRY")")× fluidsynth's time (CPU $(fmt 2 "$(calc "$(cpu dry) / $(cpu fsdry)")")×; WAV ${DRY_SECONDS} s vs ${FS_SECONDS} s; one synth per voice, two for the keys, on $(nproc) cores, then loudness and true-peak mastering)" "≤ 0.7×"
row "2a' the same without mastering" \
    "\`$(cmd dryraw)\`" "$(seconds dryraw "$AUDIO")" \
    "fluidsynth, row 2a" "$(fmt 2 "$FSDRY") s" \
    "Clumsy takes $(fmt 2 "$(calc "$(wall dryraw) / $FSDRY")")× fluidsynth's time (CPU $(fmt 2 "$(calc "$(cpu dryraw) / $(cpu fsdry)")")×): mastering costs $(fmt 2 "$(calc "$DRY - $(wall dryraw)")") s" "—"
FX=$(wall fx) FSFX=$(wall fsfx)
ratio 2b "audio render with effects, against fluidsynth with reverb (runs alternated)" "$FX" "$FSFX" s "$(paired fx fsfx)"
row "2b Audio, effects on (preset's delay + reverb)" \
    "\`$(cmd fx)\`" "$(seconds fx "$AUDIO")" \
    "\`$(cmd fsfx)\` on that session's MIDI (reverb only: the command has no delay)" \
    "$(seconds fsfx "$AUDIO")" \
    "Clumsy takes $(fmt 2 "$(calc "$FX / $FSFX")")× fluidsynth's time (CPU $(fmt 2 "$(calc "$(cpu fx) / $(cpu fsfx)")")×)" "—"
for effect in filter delay reverb; do
  t=$(wall $effect)
  row "2 effect cost: $effect only" \
      "\`$(cmd $effect)\`" "$(seconds $effect "$AUDIO")" \
      "dry, row 2a" "$(fmt 2 "$DRY") s (CPU $(fmt 2 "$(cpu dry)") s)" \
      "$effect costs $(fmt 2 "$(calc "$t - $DRY")") s wall ($(fmt 0 "$(calc "100 * ($t - $DRY) / $DRY")") %), $(fmt 2 "$(calc "$(cpu $effect) - $(cpu dry)")") s CPU" "—"
done

# 3. Swarm ---------------------------------------------------------------------------------
log "3. swarm (${SWARM} s)"
SWARM_INPROC=(--preset swarm --duration "$SWARM" --repetitions 1 --tiers share)
: >swarmchip.wall
for ((rep = 0; rep < SWARM_REPS; rep++)); do
  APPEND=$((rep > 0)) measure swarm 1 -- "$CLUMSY" run swarm --duration "$SWARM" --midi x.mid --quiet
  [[ $rep == 0 ]] && log "  $(shown "$BENCH" "${SWARM_INPROC[@]}")"
  "$BENCH" "${SWARM_INPROC[@]}" >swarm.txt
  [[ -n $(value swarm.txt share chipmunk_wall) ]] || { log "bench: clumsy-bench gave no swarm result"; exit 1; }
  value swarm.txt share chipmunk_wall >>swarmchip.wall
done
cat swarm.txt >&2
measure swarmaudio "$SWARM_REPS" -- "$CLUMSY" run swarm --duration "$SWARM" --audio x.wav --quiet
S=$(wall swarm) SA=$(wall swarmaudio)
row "3a Swarm, MIDI only: ${SWARM} s of \`swarm\` (1000 balls)" \
    "\`$(cmd swarm)\`" "$(seconds swarm "$SWARM")" \
    "real time" "${SWARM} s" "$(rate "$SWARM" "$S")× real time" "≥ 5×"
row "3b Swarm, audio (preset's reverb)" \
    "\`$(cmd swarmaudio)\`" "$(seconds swarmaudio "$SWARM")" \
    "real time" "${SWARM} s" "$(rate "$SWARM" "$SA")× real time" "≥ 1×"
SW=$(value swarm.txt share wall) SC=$(value swarm.txt share chipmunk_wall)
ratio 3a "clumsy run swarm, MIDI only, against the time inside cpSpaceStep of the same swarm in process (runs alternated)" "$S" "$(median swarmchip.wall)" s "$(paired swarm swarmchip)"
row "3c Swarm: time inside Chipmunk" \
    "\`$(shown "$BENCH" "${SWARM_INPROC[@]}")\`" "$(fmt 2 "$SW") s (n=1; $(value swarm.txt share drops) redrops)" \
    "of which inside \`cpSpaceStep\`" "$(fmt 2 "$SC") s" \
    "Chipmunk = $(pct "$SC" "$SW") % of the run" "—"

# make bench-check runs only the gated rows (1, 2, 3, 5): memory, video, batches and the
# plugin are figures for the table, not the gate.
if [[ $CHECK != 1 ]]; then
# 4. Memory --------------------------------------------------------------------------------
log "4. memory"
measure day 1 -- "$CLUMSY" run default --duration "$DAY" --midi x.mid --quiet
measure memaudio 1 -- "$CLUMSY" run default --duration "$MEM_AUDIO" --audio x.wav
DAYW=$(wall day)
row "4a Peak RSS, MIDI only: ${DAY} s ($(fmt 1 "$(calc "$DAY / 3600")") h) of \`default\`" \
    "\`/usr/bin/time -f %M $(cmd day)\`" "$(rss_mb day) MB (n=1; ran $(fmt 1 "$DAYW") s = $(rate "$DAY" "$DAYW")×)" \
    "the ${SIM} s sessions of row 1" "$(rss_mb sim) MB" \
    "$(fmt 2 "$(calc "$(maximum day.rss) / $(maximum sim.rss)")")× the short session's RSS" "flat"
row "4b Peak RSS, audio: ${MEM_AUDIO} s of \`default\`" \
    "\`/usr/bin/time -f %M $(cmd memaudio)\`" "$(rss_mb memaudio) MB (n=1)" \
    "\`$(cmd fsdry)\` (row 2a)" "$(rss_mb fsdry) MB" \
    "$(fmt 2 "$(calc "$(maximum memaudio.rss) / $(maximum fsdry.rss)")")× fluidsynth's" "—"

fi
# 5. Start-up ------------------------------------------------------------------------------
log "5. start-up"
CAP_SAVED=$CAP CAP=60
for ((rep = 0; rep < STARTUP_REPS; rep++)); do
  APPEND=$((rep > 0)) NOTIME=1 measure floor 1 -- /bin/true
  APPEND=$((rep > 0)) NOTIME=1 measure presets 1 -- "$CLUMSY" presets
  APPEND=$((rep > 0)) NOTIME=1 measure short 1 -- "$CLUMSY" run default --duration 1 --midi x.mid --quiet
done
CAP=$CAP_SAVED
ms() { fmt 1 "$(calc "1000 * $(wall "$1")")"; }
ratio 5a "clumsy presets, against /bin/true (runs alternated)" "$(wall presets)" "$(wall floor)" s "$(paired presets floor)"
ratio 5b "a 1 s session, against /bin/true (runs alternated)" "$(wall short)" "$(wall floor)" s "$(paired short floor)"
row "5a Start-up: list presets" "\`$(cmd presets)\`" "$(ms presets) ms (n=$(runs presets))" \
    "\`/bin/true\` (process start floor)" "$(ms floor) ms" "$(fmt 1 "$(calc "$(ms presets) - $(ms floor)")") ms above the floor" "≪ 100 ms"
row "5b Start-up: 1 s session" "\`$(cmd short)\`" "$(ms short) ms (n=$(runs short))" \
    "\`/bin/true\`" "$(ms floor) ms" "$(fmt 1 "$(calc "$(ms short) - $(ms floor)")") ms above the floor" "≪ 100 ms"

if [[ $CHECK != 1 ]]; then
# 6. Video ----------------------------------------------------------------------------------
log "6. video (${VIDEO} s of default at ${VIDEO_SIZE}, 30 fps)"
command -v ffmpeg >/dev/null || { log "bench: the ffmpeg command is missing (apt-get install ffmpeg)"; exit 1; }
# Where the time goes: the same run with an ffmpeg that only swallows the frames (drawing,
# piping and audio), and the audio render alone; the rest is ffmpeg's (encoding and muxing).
mkdir -p fakebin
printf '#!/bin/sh\ncase "$*" in *pipe:0*) exec cat >/dev/null ;; esac\nfor a; do last=$a; done\n: >"$last"\n' >fakebin/ffmpeg
chmod +x fakebin/ffmpeg
measure video "$VIDEO_REPS" -- "$CLUMSY" run default --duration "$VIDEO" --video x.mp4 --size "$VIDEO_SIZE" --quiet
VIDEO_SECONDS=$(fmt 1 "$(ffprobe -v error -show_entries format=duration -of csv=p=0 x.mp4)")
FAKE_PATH="$WORK/fakebin:$PATH"
measure videodraw "$VIDEO_REPS" -- env PATH="$FAKE_PATH" "$CLUMSY" run default --duration "$VIDEO" --video y.mp4 --size "$VIDEO_SIZE" --quiet
measure videoaudio "$VIDEO_REPS" -- "$CLUMSY" run default --duration "$VIDEO" --audio x.wav --quiet
V=$(wall video) VC=$(cpu video) VD=$(cpu videodraw) VA=$(cpu videoaudio)
row "6 Video: ${VIDEO} s of \`default\`, ${VIDEO_SIZE}, 30 fps, H.264 + AAC (${VIDEO_SECONDS} s with the sound's tail)" \
    "\`$(cmd video)\`" "$(seconds video "$VIDEO")" \
    "real time; CPU split from \`$(cmd videodraw)\` with an ffmpeg that discards the frames, and \`$(cmd videoaudio)\`" \
    "${VIDEO} s" \
    "$(rate "$VIDEO" "$V")× real time ($(rate "$VIDEO_SECONDS" "$V")× the video's length); CPU: ffmpeg encoding + muxing $(fmt 1 "$(calc "$VC - $VD")") s ($(pct "$(calc "$VC - $VD")" "$VC") %), drawing + piping frames $(fmt 1 "$(calc "$VD - $VA")") s ($(pct "$(calc "$VD - $VA")" "$VC") %), audio and physics $(fmt 1 "$VA") s ($(pct "$VA" "$VC") %)" "≥ 2×"

# 7. Batches --------------------------------------------------------------------------------
log "7. batches (${BATCH_MIDI} MIDI-only items, ${BATCH_AUDIO} audio items)"
ITEM_MIDI=$([[ $MODE == full ]] && echo 120 || echo 2) ITEM_AUDIO=$([[ $MODE == full ]] && echo 30 || echo 1)
perminute() { fmt 1 "$(calc "60 * $1 / $(wall "$2")")"; }
measure batchmidi "$BATCH_REPS" -- "$CLUMSY" batch -o batch-out --seeds "1..$BATCH_MIDI" --duration "$ITEM_MIDI" --outputs midi --jobs "$(nproc)" --quiet
measure batchmidi1 "$BATCH_REPS" -- "$CLUMSY" batch -o batch-out --seeds "1..$BATCH_MIDI" --duration "$ITEM_MIDI" --outputs midi --jobs 1 --quiet
measure batchaudio "$BATCH_REPS" -- "$CLUMSY" batch -o batch-out --seeds "1..$BATCH_AUDIO" --duration "$ITEM_AUDIO" --outputs audio --jobs "$(nproc)" --quiet
measure batchaudio1 "$BATCH_REPS" -- "$CLUMSY" batch -o batch-out --seeds "1..$BATCH_AUDIO" --duration "$ITEM_AUDIO" --outputs audio --jobs 1 --quiet
row "7a Batch, MIDI only: ${BATCH_MIDI} items of ${ITEM_MIDI} s of \`default\`" \
    "\`$(cmd batchmidi)\`" "$(fmt 2 "$(wall batchmidi)") s (CPU $(fmt 2 "$(cpu batchmidi)") s, n=$(runs batchmidi))" \
    "\`$(cmd batchmidi1)\`" "$(fmt 2 "$(wall batchmidi1)") s" \
    "$(perminute "$BATCH_MIDI" batchmidi) items per minute on $(nproc) cores ($(perminute "$BATCH_MIDI" batchmidi1) with one at a time), $(rate "$((BATCH_MIDI * ITEM_MIDI))" "$(wall batchmidi)")× real time" "—"
row "7b Batch, audio: ${BATCH_AUDIO} items of ${ITEM_AUDIO} s of \`default\`" \
    "\`$(cmd batchaudio)\`" "$(fmt 2 "$(wall batchaudio)") s (CPU $(fmt 2 "$(cpu batchaudio)") s, n=$(runs batchaudio))" \
    "\`$(cmd batchaudio1)\`" "$(fmt 2 "$(wall batchaudio1)") s" \
    "$(perminute "$BATCH_AUDIO" batchaudio) items per minute on $(nproc) cores ($(perminute "$BATCH_AUDIO" batchaudio1) with one at a time), $(rate "$((BATCH_AUDIO * ITEM_AUDIO))" "$(wall batchaudio)")× real time" "—"

# 8. The LV2 plugin ----------------------------------------------------------------------------
# run() of clumsy.lv2 in Tools/lv2host.c (a headless lilv host): 256-frame blocks at 48 kHz,
# a time:Position rolling at 120 bpm; the mean cost of a block against the block's length, and
# the allocations counted inside run() (the host's malloc family counts while run() runs).
log "8. LV2 plugin (${LV2_SECONDS} s of default and of swarm, 256-frame blocks at 48 kHz)"
[[ -f $LV2_LIBRARY ]] || { log "bench: $LV2_LIBRARY is missing; build it first (make bench builds it)"; exit 1; }
cc -O2 -rdynamic -o lv2host "$ROOT/Tools/lv2host.c" $(pkg-config --cflags --libs lilv-0)
python3 "$ROOT/Tools/lv2bundle.py" "$LV2_LIBRARY" "$ROOT/Presets" clumsy.lv2
lv2_row() {   # lv2_row PRESET INDEX
  ./lv2host clumsy.lv2 "$LV2_SECONDS" --preset "$2" --allocations --timing >/dev/null 2>lv2.txt
  local mean p99 allocations
  mean=$(sed -n 's/^run(): mean \([0-9.]*\) us.*/\1/p' lv2.txt)
  p99=$(sed -n 's/.*99th percentile \([0-9.]*\) us.*/\1/p' lv2.txt)
  allocations=$(sed -n 's/^allocations in run(): \([0-9]*\).*/\1/p' lv2.txt)
  row "8 LV2 plugin: run() per 256-frame block, ${LV2_SECONDS} s of \`$1\` at 120 bpm" \
      "\`lv2host clumsy.lv2 ${LV2_SECONDS} --preset $2 --timing --allocations\` (Tools/lv2host.c)" "mean $(fmt 2 "$mean") µs, 99th percentile $(fmt 2 "$p99") µs" \
      "the block's length at 48 kHz" "5333 µs" \
      "$(fmt 3 "$(calc "100 * $mean / 5333.3")") % of the block; $allocations allocations inside run()" "< 1 %"
}
lv2_row default 0
lv2_row swarm "$(grep -n '^swarm$' clumsy.lv2/presets.txt | cut -d: -f1 | awk '{print $1 - 1}')"
# Every bundled preset (form returns, a section in its own key, key scenes, 1000 balls), and
# default with MIDI in (held chords in two keys, a single note), port changes, a drop and the
# UI open (frames on the notify port): the count of
# allocations inside run(), which the release build keeps at 0 (docs/plugin.md).
LV2_SCRIPT=(480000:midi:144,66,100 480000:midi:144,70,100 480000:midi:144,73,100 960000:midi:128,66,0 960000:midi:128,70,0
            960000:midi:128,73,0 1440000:midi:144,63,100 1440000:midi:144,67,100 1440000:midi:144,70,100 1920000:midi:144,72,90
            2400000:port:gravity=5 2400000:port:swing=0.3 2640000:port:drop=500)
lv2_allocations() {   # the count, or a message naming the failed run (which makes the row fail)
  local count
  count=$(./lv2host clumsy.lv2 "$LV2_SECONDS" "$@" --allocations 2>&1 >/dev/null | sed -n 's/^allocations in run(): \([0-9]*\).*/\1/p')
  [[ $count =~ ^[0-9]+$ ]] || { log "bench: lv2host $* failed"; exit 1; }
  echo "$count"
}
LV2_COUNTS=""
LV2_TOTAL=0
index=0
while read -r name; do
  count=$(lv2_allocations --preset "$index")
  LV2_COUNTS+="$name $count, "
  LV2_TOTAL=$((LV2_TOTAL + count))
  index=$((index + 1))
done <clumsy.lv2/presets.txt
count=$(lv2_allocations --preset 0 --ui "${LV2_SCRIPT[@]}")
LV2_COUNTS+="default with MIDI in, port changes, a drop and the UI open $count"
LV2_TOTAL=$((LV2_TOTAL + count))
row "8c LV2 plugin: allocations inside run(), ${LV2_SECONDS} s of every bundled preset" \
    "\`lv2host clumsy.lv2 ${LV2_SECONDS} --preset N --allocations\` for each N in presets.txt, and default with MIDI in and the UI open (--ui)" "$LV2_TOTAL in all" \
    "—" "—" "$LV2_COUNTS" "0"

# 9. Stopping -------------------------------------------------------------------------------
# SIGINT 1.5 s into an hour-long 96 kHz render (and into a live session on the file driver) to
# the process's exit: the current step, the queued audio, a short tail and the encoding of what
# was rendered. The tests only guard against a hang (Tests/EndToEndTests/StopLatencyTests.swift).
log "9. stopping (SIGINT 1.5 s into a 96 kHz render, ${STOP_REPS} runs each)"
stop_once() {   # stop_once NAME ARGS...: one run, SIGINT after 1.5 s, the seconds to its exit into NAME.stop
  local name=$1 pid status t0
  shift
  "$CLUMSY" "$@" & pid=$!
  sleep 1.5
  t0=$EPOCHREALTIME
  kill -INT "$pid"
  status=0; wait "$pid" || status=$?
  calc "$EPOCHREALTIME - $t0" >>"$name.stop"
  [[ $status == 130 ]] || { log "bench: $* exited $status after SIGINT, not 130"; exit 1; }
}
STOPS=""
for output in x.wav x.flac x.ogg live; do
  name=stop-${output#x.}
  : >"$name.stop"
  for ((rep = 0; rep < STOP_REPS; rep++)); do
    if [[ $output == live ]]; then
      stop_once "$name" run original --live --audio-driver file --audio live.wav --midi l.mid --quiet
    else
      stop_once "$name" run original --duration 3600 --audio "$output" --sample-rate 96000 --quiet
    fi
  done
  STOPS+="$output $(fmt 0 "$(calc "1000 * $(median "$name.stop")")") ms (max $(fmt 0 "$(calc "1000 * $(sort -g "$name.stop" | tail -n 1)")")), "
done
row "9 Stopping: SIGINT 1.5 s into \`clumsy run original --duration 3600 --audio x.wav --sample-rate 96000\` (.flac, .ogg; and \`--live --audio-driver file\`)" \
    "\`kill -INT\`, then the wait for the exit (n=${STOP_REPS} each)" "${STOPS%, }" \
    "—" "—" "median of the runs (the slowest in brackets); Ogg encodes the ~20 s rendered by then" "WAV, FLAC, live ≤ 500 ms"
fi
# Table --------------------------------------------------------------------------------------
{
echo "| benchmark | Clumsy command | Clumsy (median) | reference command | reference (median) | result | target |"
echo "|---|---|---|---|---|---|---|"
printf '%s\n' "${ROWS[@]}"
echo
echo "$MODE run on $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), $(free -g | awk '/^Mem:/ { print $2 " GiB" }'), $(. /etc/os-release && echo "$PRETTY_NAME"), $("$FLUIDSYNTH" --version 2>/dev/null | head -n 1), SoundFont $(basename "$SOUNDFONT"); load average at the end $(cut -d' ' -f1-3 /proc/loadavg); took $(fmt 0 "$(calc "$EPOCHREALTIME - $START")") s."
echo "In-process tiers of row 1 (simulated s per wall s): $(for t in bare world simulator midi share; do printf '%s %s×; ' "$t" "$(value inproc.txt $t rate)"; done)"
echo "(bare: World.stepWithoutRules, no handlers; world: World.step, rules + contacts; simulator: Simulator, no sink; midi: + MIDIRecorder; share: midi timing cpSpaceStep.)"
if [[ $(calc "$(value inproc.txt bare cpu) > $(value inproc.txt midi cpu)") == 1 ]]; then
  echo "Bare stepping is slower than the whole session here: without the session's redrops and kicks the piano balls come to rest on the keys and each other, and resting contacts cost Chipmunk more than balls in flight. Row 1c (Chipmunk's own time on the session's trajectory) is the like-for-like overhead figure."
fi
} >table.md
echo
cat table.md
# A full run writes its table into docs/benchmarks.md, between the markers (BENCH_DOC=…
# to write elsewhere, BENCH_DOC= not at all); the smoke run never does.
DOC=${BENCH_DOC-$ROOT/docs/benchmarks.md}
LAST=$ROOT/Benchmarks/last.json
python3 "$ROOT/Benchmarks/ratios.py" write ratios.json "$WORK/ratios.tsv" "$MODE"
if [[ $CHECK == 1 ]]; then
  [[ -f $LAST ]] || { log "bench-check: no $LAST to compare with: run make bench first"; exit 1; }
  python3 "$ROOT/Benchmarks/ratios.py" check "$LAST" ratios.json
elif [[ $MODE == full ]]; then
  cp ratios.json "$LAST" && log "bench: wrote the ratios into $LAST"
  [[ -n $DOC ]] && python3 "$ROOT/Benchmarks/splice.py" "$DOC" table.md && log "bench: wrote the table into $DOC"
else
  # The smoke run compares its ratios with themselves: the gate's code runs, so it never rots.
  python3 "$ROOT/Benchmarks/ratios.py" check ratios.json ratios.json >&2
fi
