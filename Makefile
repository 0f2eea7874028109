# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later

# Clumsy — two commands do everything on a fresh Debian machine:
#   make run    install what is missing, build, render the default session into out/
#   make test   install what is missing, build, run every test
# Other targets: make install (PREFIX=/usr/local), make uninstall, make man, make bench, make soak,
# make fuzz, make docs, make clean.

SHELL := /bin/bash
SWIFT ?= swift
OUT ?= out
DURATION ?= 60

# Debian packages: C libraries, the General MIDI SoundFonts, the LADSPA delay, sox and the
# fluidsynth command (audio checks and benchmarks), valgrind (leak test), procps (pgrep in the signal tests).
# libsndfile1-dev and libebur128-dev: writing WAV/FLAC/Ogg and measuring loudness (mix and master);
# ffmpeg: the independent loudness meter of the mix tests, and the encoder of --video;
# Cairo and the DejaVu fonts (pictures), rsvg-convert and pdftoppm (the picture tests).
# Studio: JACK, ALSA and liblo headers; jackd2 (jackd, jack_midi_dump) and liblo-tools (oscsend,
# oscdump) for the tests, which start their own dummy-backend JACK server and stop it again.
# lilypond: the score tests engrave what --score writes.
# The LV2 plugin: lv2-dev (headers, lv2_validate) with sordi (sord_validate, which lv2_validate
# runs); liblilv-dev (the plugin tests' headless host), lilv-utils (lv2ls, lv2info), jalv (a
# console host) and lv2-examples (eg-metro and eg-fifths, reference plugins).
DEBIAN_PACKAGES := libchipmunk-dev libfluidsynth-dev fluid-soundfont-gm timgm6mb-soundfont cmt sox fluidsynth valgrind time procps \
  libsndfile1-dev libebur128-dev ffmpeg libcairo2-dev fonts-dejavu-core librsvg2-bin poppler-utils \
  libjack-jackd2-dev libasound2-dev liblo-dev jackd2 liblo-tools man-db groff-base bash-completion \
  lilypond lv2-dev sordi liblilv-dev lilv-utils jalv lv2-examples parallel slurm-wlm munge
# (GNU parallel and a single-node Slurm, slurm-wlm and munge configured in a temporary
# directory by Tools/slurm_single_node.sh, run the shards of `clumsy batch` in its tests.)
# Python's mido is the independent MIDI reader the end-to-end tests compare against; jams and
# mir_eval check the labels of `clumsy batch` (Tools/check_batch_labels.py), librosa its beats
# (Tools/check_batch_beats.py). MusPy, music21, pretty_midi and pyloudnorm are the listener of
# make musicality (Tools/musicality.py), with librosa.
PYTHON_PACKAGES := mido jams mir_eval librosa muspy music21 pretty_midi pyloudnorm

.PHONY: run test deps build release soak fuzz bench clean docs install install-files uninstall man lint lv2 install-lv2 musicality

deps:
	@missing=$$(for p in $(DEBIAN_PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" != 0 ]; then \
	    echo "clumsy needs these Debian packages: $$missing"; \
	    echo "run as root, or: sudo apt-get install -y $$missing"; exit 1; \
	  fi; \
	  echo "installing Debian packages: $$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 1; \
	fi
	@python3 -c "import mido, jams, mir_eval, librosa, muspy, music21, pretty_midi, pyloudnorm" 2>/dev/null || { echo "installing Python packages: $(PYTHON_PACKAGES)"; \
	  python3 -m pip install -q $(PYTHON_PACKAGES) 2>/dev/null || python3 -m pip install -q --break-system-packages $(PYTHON_PACKAGES); } || \
	  echo "note: one of Python's $(PYTHON_PACKAGES) is missing; the checks that need it will be skipped"

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product clumsy

run: release lv2
	@mkdir -p $(OUT)
	.build/release/clumsy run default --duration $(DURATION) --midi $(OUT)/session.mid --events $(OUT)/session.jsonl --audio $(OUT)/session.wav
	@echo "the default session is in $(CURDIR)/$(OUT)/: session.wav (audio), session.mid (MIDI), session.jsonl (event log)"

# The LV2 plugin bundle (docs/plugin.md): the shared library, manifest.ttl, clumsy.ttl and the
# presets, in .build/lv2/clumsy.lv2 (LV2_PATH=$(CURDIR)/.build/lv2 lv2ls lists it).
LV2_BUNDLE = .build/lv2/clumsy.lv2
lv2: deps
	$(SWIFT) build -c release --product ClumsyLV2
	python3 Tools/lv2bundle.py "$$($(SWIFT) build -c release --show-bin-path)/libClumsyLV2.so" Presets $(LV2_BUNDLE)
	@echo "the LV2 plugin is in $(CURDIR)/$(LV2_BUNDLE)"

# The JACK suites (Studio, and the LV2 plugin in jalv) and the stop-latency suite run on their
# own after the rest: a dummy JACK server without real-time priority skips cycles when the
# parallel suite loads both cores, and their timing checks (one period, 24 ppqn, a stop within
# 0.5 s) are about Clumsy and JACK, not about how busy the test machine is.
test: deps lint
	$(SWIFT) build --build-tests
	$(SWIFT) build --product ClumsyLV2   # the plugin tests load it; --build-tests links no library product
	$(SWIFT) test --skip-build --skip StudioEndToEndTests --skip PluginJackTests --skip StopLatencyTests
	$(SWIFT) test --skip-build --filter "StudioEndToEndTests|PluginJackTests|StopLatencyTests"
	$(MAKE) --no-print-directory bench-smoke

# The shape of the code: no Swift file over 500 lines, no function over 80 (Tools/sizes.py); the
# module graph: imports exactly as Package.swift declares, no @_exported, and the diagram and
# table in docs/design.md the same as Package.swift (Tools/modulegraph.py).
lint:
	python3 Tools/sizes.py Sources Tests/TestSupport
	python3 Tools/modulegraph.py

# 24 simulated hours of every bundled preset (the swarm: a 30th of that), plus the peak
# memory of a 24-hour MIDI-only session. Takes a while; results go in the README.
SOAK_SECONDS ?= 86400
soak: deps
	$(SWIFT) build -c release --build-tests -Xswiftc -enable-testing
	CLUMSY_SOAK_SECONDS=$(SOAK_SECONDS) $(SWIFT) test -c release -Xswiftc -enable-testing --skip-build --filter SoakTests
	$(SWIFT) build -c release --product clumsy
	@mkdir -p $(OUT)
	/usr/bin/time -f "peak resident memory of a $(SOAK_SECONDS) s MIDI-only session: %M KB (%e s wall)" \
	  .build/release/clumsy run default --duration $(SOAK_SECONDS) --midi $(OUT)/soak.mid --events $(OUT)/soak.jsonl --quiet

# A long fuzzing campaign of every reader of outside input, a target each: presets (decoder
# and simulator), event logs (as roll and as replay read them), MIDI files (analyze and roll),
# OSC packets (--osc-in), batch item manifests, the LV2 plugin's control ports and
# time:Position (its engine's C interface), and the escaping of every language Clumsy writes.
# CI (make test) runs 1500 inputs of each.
FUZZ_ITERATIONS ?= 1000000
fuzz: deps
	$(SWIFT) build -c release --build-tests -Xswiftc -enable-testing
	$(SWIFT) build -c release --product ClumsyLV2 -Xswiftc -enable-testing   # the plugin-ports target loads it
	CLUMSY_FUZZ_ITERATIONS=$(FUZZ_ITERATIONS) $(SWIFT) test -c release -Xswiftc -enable-testing --skip-build --filter FuzzTests

clean:
	rm -rf .build $(OUT)

# make install [PREFIX=/usr/local] [DESTDIR=…]: the release binary, the bundled presets (which
# the installed binary finds from any directory), the manual pages and the shell completions.
# install-files installs an already built BIN (the tests install the debug build this way).
# The bash script falls back to file names where it offers nothing (-o default): a preset path,
# an output file.
PREFIX ?= /usr/local
# DESTDIR and PREFIX go into the recipes' shell commands (and uninstall's rm -rf) in double
# quotes: a character the shell still reads there (` $ " \) would run code, and a blank would
# split INSTALLED's words and widen what uninstall removes. Refused before anything runs.
ifneq ($(filter install install-files install-lv2 uninstall,$(MAKECMDGOALS)),)
  ifneq ($(findstring `,$(DESTDIR)$(PREFIX))$(findstring ",$(DESTDIR)$(PREFIX))$(findstring $$,$(DESTDIR)$(PREFIX))$(findstring \,$(DESTDIR)$(PREFIX)),)
    $(error DESTDIR and PREFIX may not hold ` " $$ or \: the install commands would run them in the shell)
  endif
  ifneq ($(words $(DESTDIR)$(PREFIX)),1)
    $(error DESTDIR and PREFIX may not hold blanks (or be empty): uninstall would remove other paths)
  endif
endif
BIN ?= .build/release/clumsy
MANDIR = $(PREFIX)/share/man/man1
INSTALLED = $(PREFIX)/bin/clumsy $(PREFIX)/share/clumsy $(PREFIX)/share/bash-completion/completions/clumsy \
  $(PREFIX)/share/zsh/site-functions/_clumsy $(PREFIX)/share/fish/vendor_completions.d/clumsy.fish \
  $(PREFIX)/lib/lv2/clumsy.lv2
install: release lv2
	$(MAKE) --no-print-directory install-files BIN=.build/release/clumsy
	$(MAKE) --no-print-directory install-lv2

# The LV2 bundle into PREFIX/lib/lv2 (a host finds it there when PREFIX is /usr/local or /usr).
install-lv2:
	@test -f "$(LV2_BUNDLE)/clumsy.so" || { echo "no $(LV2_BUNDLE): build it first (make lv2)"; exit 1; }
	rm -rf "$(DESTDIR)$(PREFIX)/lib/lv2/clumsy.lv2"
	install -d "$(DESTDIR)$(PREFIX)/lib/lv2/clumsy.lv2/presets"
	install -m 755 "$(LV2_BUNDLE)/clumsy.so" "$(DESTDIR)$(PREFIX)/lib/lv2/clumsy.lv2/"
	install -m 644 "$(LV2_BUNDLE)"/*.ttl "$(LV2_BUNDLE)/presets.txt" "$(DESTDIR)$(PREFIX)/lib/lv2/clumsy.lv2/"
	install -m 644 "$(LV2_BUNDLE)"/presets/*.json "$(DESTDIR)$(PREFIX)/lib/lv2/clumsy.lv2/presets/"

install-files:
	@test -x "$(BIN)" || { echo "no $(BIN): build it first (make release)"; exit 1; }
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/clumsy/presets" "$(DESTDIR)$(MANDIR)" \
	  "$(DESTDIR)$(PREFIX)/share/bash-completion/completions" "$(DESTDIR)$(PREFIX)/share/zsh/site-functions" \
	  "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d"
	install -m 755 "$(BIN)" "$(DESTDIR)$(PREFIX)/bin/clumsy"
	install -m 644 Presets/*.json "$(DESTDIR)$(PREFIX)/share/clumsy/presets/"
	@man=$$(mktemp -d) && python3 Tools/manpages.py "$(BIN)" "$$man" && install -m 644 "$$man"/*.1 "$(DESTDIR)$(MANDIR)/"; \
	  status=$$?; rm -rf "$$man"; exit $$status
	"$(BIN)" --generate-completion-script bash | sed 's/^complete -o filenames -F/complete -o default -o filenames -F/' \
	  > "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/clumsy"
	"$(BIN)" --generate-completion-script zsh > "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_clumsy"
	"$(BIN)" --generate-completion-script fish > "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/clumsy.fish"
	@echo "installed clumsy into $(DESTDIR)$(PREFIX): try 'clumsy run lydian-moon' and 'man clumsy'"

uninstall:
	rm -rf $(foreach f,$(INSTALLED),"$(DESTDIR)$(f)")
	rm -f "$(DESTDIR)$(MANDIR)"/clumsy.1 "$(DESTDIR)$(MANDIR)"/clumsy-*.1

# The manual pages, from the argument definitions (clumsy --experimental-dump-help) and Tools/man/.
man: build
	python3 Tools/manpages.py .build/debug/clumsy $(OUT)/man

# Regenerates the settings reference in Presets/README.md and the flags of `clumsy run`
# (Sources/clumsy/SettingFlags.swift) from the settings table (Sources/Presets/Settings.swift).
docs:
	$(SWIFT) run clumsy-docs

# The music as a listener hears it (issue 29, Tools/musicality.sh): every bundled preset at seeds
# 1-3 for 180 s (MIDI and mastered WAV), measured with MusPy, music21, pretty_midi, librosa and
# pyloudnorm beside 60 Bach chorales and 60 fiddle tunes from music21's corpus and random notes.
# Prints the table and writes it into .build/musicality/musicality.md (and .json). A quick look:
#   make musicality PRESETS="default pulse" SEEDS=1 MUSICALITY_DURATION=60
PRESETS ?=
SEEDS ?=
MUSICALITY_DURATION ?= 180
musicality: release
	PRESETS="$(PRESETS)" SEEDS="$(SEEDS)" DURATION=$(MUSICALITY_DURATION) Tools/musicality.sh

# Benchmarks (Benchmarks/bench.sh): one Markdown table in under ten minutes, release build,
# printed and written into docs/benchmarks.md with the date and the machine.
# bench-smoke runs the same code with tiny durations (seconds) on the debug build, so it never rots.
# BENCH_FLAGS adds swift build flags (e.g. BENCH_FLAGS="--scratch-path .build-bench").
BENCH_FLAGS ?=
.PHONY: bench-smoke
bench: deps
	$(SWIFT) build -c release $(BENCH_FLAGS) --product clumsy
	$(SWIFT) build -c release $(BENCH_FLAGS) --product clumsy-bench
	$(SWIFT) build -c release $(BENCH_FLAGS) --product ClumsyLV2
	BIN_DIR="$$($(SWIFT) build -c release $(BENCH_FLAGS) --show-bin-path)" Benchmarks/bench.sh

bench-smoke: deps
	$(SWIFT) build $(BENCH_FLAGS) --product clumsy
	$(SWIFT) build $(BENCH_FLAGS) --product clumsy-bench
	$(SWIFT) build $(BENCH_FLAGS) --product ClumsyLV2
	BIN_DIR="$$($(SWIFT) build $(BENCH_FLAGS) --show-bin-path)" Benchmarks/bench.sh --smoke
