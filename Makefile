# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later

# Clumsy — two commands do everything on a fresh Debian machine:
#   make run    install what is missing, build, render the default session into out/
#   make test   install what is missing, build, run every test
# Other targets: make install (PREFIX=/usr/local), make uninstall, make man, make bench, make soak,
# make fuzz, make check-export, make docs, make dist, make deb, make resolve, make offline-build, make clean (docs/install.md).

SHELL := /bin/bash
SWIFT ?= swift
OUT ?= out
DURATION ?= 60

# Debian packages: C libraries, the General MIDI SoundFonts, the LADSPA delay, sox and the
# fluidsynth command (audio checks and benchmarks), valgrind (leak test), procps (pgrep in the signal tests).
# libsndfile1-dev and libebur128-dev: writing WAV/FLAC/Ogg and measuring loudness (mix and master);
# ffmpeg: the independent loudness meter of the mix tests, and the encoder of --video;
# Cairo and the DejaVu fonts (pictures), rsvg-convert and pdftoppm (the picture tests).
# Studio: JACK, ALSA and liblo headers, and Ableton Link's (header-only C++, with asio); jackd2 (jackd, jack_midi_dump, jack_transport,
# jack_midiseq), jack-midi-clock (a MIDI clock master that follows JACK transport) and
# liblo-tools (oscsend, oscdump) for the tests, which start their own dummy-backend JACK
# server and stop it again.
# lilypond: the score tests engrave what --score writes.
# The LV2 plugin: lv2-dev (headers, lv2_validate) with sordi (sord_validate, which lv2_validate
# runs); liblilv-dev (the plugin tests' headless host), lilv-utils (lv2ls, lv2info), jalv (a
# console host) and lv2-examples (eg-metro and eg-fifths, reference plugins). Its UI: libx11-dev
# (the X11 window, in the plugin's library); xvfb, xdotool and imagemagick (import) run
# jalv.gtk3 with the UI on an X server of the test's own, find its window and read it.
DEBIAN_PACKAGES := libchipmunk-dev libfluidsynth-dev fluid-soundfont-gm timgm6mb-soundfont cmt sox fluidsynth valgrind time procps \
  libsndfile1-dev libebur128-dev ffmpeg libcairo2-dev fonts-dejavu-core librsvg2-bin poppler-utils \
  libjack-jackd2-dev libasound2-dev liblo-dev ableton-link-dev jackd2 jack-midi-clock liblo-tools man-db groff-base bash-completion \
  lilypond lv2-dev sordi liblilv-dev lilv-utils jalv lv2-examples libx11-dev xvfb xdotool imagemagick parallel slurm-wlm munge \
  binutils util-linux iproute2 debhelper dpkg-dev lintian mandoc
# (binutils' readelf and util-linux's unshare and setpriv: the tests of what make install ships,
# run without the Swift toolchain and installed as an ordinary user; unshare and iproute2's ip: the
# Link test's own network namespace; debhelper, dpkg-dev and
# lintian: make deb and its check; mandoc: the manual pages' lint.)
# (GNU parallel and a single-node Slurm, slurm-wlm and munge configured in a temporary
# directory by Tools/slurm_single_node.sh, run the shards of `clumsy batch` in its tests.)
# Python's mido is the independent MIDI reader the end-to-end tests compare against; jams and
# mir_eval check the labels of `clumsy batch` (Tools/check_batch_labels.py), librosa its beats
# (Tools/check_batch_beats.py). MusPy, music21, pretty_midi and pyloudnorm are the listener of
# make musicality (Tools/musicality.py), with librosa.
# reuse checks the licence headers (make lint, and a test). Hugging Face datasets loads what
# `clumsy batch export` writes, as a dataset hub would (Tools/check_export.py).
PYTHON_PACKAGES := mido jams mir_eval librosa muspy music21 pretty_midi pyloudnorm reuse datasets

.PHONY: run test deps build release resolve vendor-mirrors offline-build soak fuzz bench clean docs install install-files uninstall man lint lv2 musicality \
  dist deb binaries

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
	@python3 -c "import mido, jams, mir_eval, librosa, muspy, music21, pretty_midi, pyloudnorm, reuse, datasets" 2>/dev/null || { echo "installing Python packages: $(PYTHON_PACKAGES)"; \
	  python3 -m pip install -q $(PYTHON_PACKAGES) 2>/dev/null || python3 -m pip install -q --break-system-packages $(PYTHON_PACKAGES); } || \
	  echo "note: one of Python's $(PYTHON_PACKAGES) is missing; the checks that need it will be skipped"

# The dependencies are the versions Package.resolved pins, never newer ones
# (--disable-automatic-resolution: a Package.swift whose dependencies changed fails until
# `swift package update` rewrites Package.resolved, which is committed). In a release tree with
# vendor/ (clumsy-VERSION-vendor.tar.gz unpacked beside the sources), vendor-mirrors points
# SwiftPM at those repositories, so the build needs no network (Tools/vendor.py, docs/install.md).
RESOLVED := --disable-automatic-resolution
VENDOR_MIRRORS = if [ -d vendor ]; then python3 Tools/vendor.py mirrors; fi
vendor-mirrors:
	@$(VENDOR_MIRRORS)

# Resolves the dependencies (from vendor/ when it is there), offline-checked by a test.
resolve: vendor-mirrors
	$(SWIFT) package resolve $(RESOLVED)

build: deps vendor-mirrors
	$(SWIFT) build $(RESOLVED)

release: deps binaries

# The version, from VERSION alone (the program reads it at build time, Plugins/VersionPlugin).
VERSION := $(shell cat VERSION)
# CONFIG=debug installs the debug build (the install tests do).
CONFIG ?= release
BIN = .build/$(CONFIG)/clumsy
PLUGIN_LIBRARY = .build/$(CONFIG)/libClumsyLV2.so
LV2_BUNDLE = .build/lv2$(if $(filter debug,$(CONFIG)),-debug)/clumsy.lv2
# What make install builds when it is missing or older than its sources: the program and the
# plugin bundle, with no package manager (make deps is for make run and make test). Release
# builds link the Swift runtime statically (Package.swift): they need no toolchain to run.
SOURCES := Package.swift VERSION $(shell find Sources Plugins -type f 2>/dev/null | sed 's/ /\\ /g')
# Every release build of the program and the plugin alike (the same flags keep one build of
# each module): --static-swift-stdlib (it changes how modules are compiled), no RUNPATH of
# $ORIGIN (nothing is installed beside the binaries), and hardened as Debian builds are: the
# linker flags of LDFLAGS (-Wl,-z,relro -Wl,-z,now: RELRO and BIND_NOW) through -Xlinker to
# every link, and CPPFLAGS and CXXFLAGS (-D_FORTIFY_SOURCE=2 needs -O2) through -Xcxx to the C++
# compiler (CLink: Ableton Link and asio). Not through -Xcc: SwiftPM passes those to Swift's
# importer of C headers too, where glibc's fortified inline functions break the module build
# ("'realpath' has different definitions in different modules"); Clumsy's C files call none of
# the functions fortification checks. debian/rules passes dpkg-buildflags' own (docs/install.md).
comma := ,
LDFLAGS ?= -Wl,-z,relro -Wl,-z,now
CPPFLAGS ?= -D_FORTIFY_SOURCE=2
CXXFLAGS ?= -O2
xlinker = $(foreach word,$(filter -Wl$(comma)%,$(1)),$(foreach part,$(subst $(comma), ,$(patsubst -Wl$(comma)%,%,$(word))),-Xlinker $(part)))
RELEASE_FLAGS = --static-swift-stdlib --disable-local-rpath $(foreach flag,$(CPPFLAGS) $(CXXFLAGS),-Xcxx $(flag)) $(call xlinker,$(LDFLAGS))
BUILD_FLAGS = $(RESOLVED) -c $(CONFIG) $(if $(filter release,$(CONFIG)),$(RELEASE_FLAGS))
binaries: $(BIN) $(LV2_BUNDLE)/manifest.ttl
# SwiftPM relinks only what changed, so each recipe touches its target: its time then says
# "built from sources at least this old", and make builds nothing the next time. Time is not
# enough: a plain `swift build -c release` relinks .build/release/clumsy without the runtime
# (it would then need the toolchain to run). So each recipe records in FILE.built how it built
# FILE (the flags) and the file it left (inode, size, time); when either differs, `stale` adds
# FORCE and make builds again with the right flags (SwiftPM relinks what the other build changed).
# (The vendor mirrors are set in the recipes, not as a phony prerequisite: make -q must be able
# to say the binaries are current.)
.PHONY: FORCE
FORCE:
built_as = $(strip $(BUILD_FLAGS) $(shell stat -c '%i %s %.9Y' $(1) 2>/dev/null))
recorded = $(strip $(shell cat $(1).built 2>/dev/null))
stale = $(if $(subst $(call built_as,$(1)),,$(call recorded,$(1)))$(subst $(call recorded,$(1)),,$(call built_as,$(1))),FORCE)
record = printf '%s %s\n' $(call shellquote,$(strip $(BUILD_FLAGS))) "$$(stat -c '%i %s %.9Y' $(1))" > $(1).built
$(BIN): $(SOURCES) $(call stale,$(BIN))
	@$(VENDOR_MIRRORS)
	$(SWIFT) build $(BUILD_FLAGS) --product clumsy
	touch $(BIN)
	@$(call record,$(BIN))
$(PLUGIN_LIBRARY): $(SOURCES) $(call stale,$(PLUGIN_LIBRARY))
	@$(VENDOR_MIRRORS)
	$(SWIFT) build $(BUILD_FLAGS) --product ClumsyLV2
	touch $(PLUGIN_LIBRARY)
	@$(call record,$(PLUGIN_LIBRARY))
$(LV2_BUNDLE)/manifest.ttl: $(PLUGIN_LIBRARY) Tools/lv2bundle.py VERSION Presets/lv2-numbers.txt $(wildcard Presets/*.json)
	python3 Tools/lv2bundle.py $(PLUGIN_LIBRARY) Presets $(LV2_BUNDLE)

run: release lv2
	@mkdir -p $(OUT)
	.build/release/clumsy run default --duration $(DURATION) --midi $(OUT)/session.mid --events $(OUT)/session.jsonl --audio $(OUT)/session.wav
	@echo "the default session is in $(CURDIR)/$(OUT)/: session.wav (audio), session.mid (MIDI), session.jsonl (event log)"

# The LV2 plugin bundle (docs/plugin.md): the shared library, manifest.ttl, clumsy.ttl and the
# presets, in .build/lv2/clumsy.lv2 (LV2_PATH=$(CURDIR)/.build/lv2 lv2ls lists it).
lv2: deps vendor-mirrors
	$(SWIFT) build $(BUILD_FLAGS) --product ClumsyLV2
	python3 Tools/lv2bundle.py $(PLUGIN_LIBRARY) Presets $(LV2_BUNDLE)
	@echo "the LV2 plugin is in $(CURDIR)/$(LV2_BUNDLE)"

# The JACK suites (Studio, and the LV2 plugin and its UI in jalv) run on their own after the rest: a
# dummy JACK server skips cycles when the parallel suite loads both cores (the tests ask jackd
# for real-time priority, which a machine may not permit), and their timing checks (one
# period, 24 ppqn) are about Clumsy and JACK,
# not about how busy the test machine is. They run one test
# at a time (--no-parallel): jalv, a JACK session and a 96 kHz render side by side are the load
# the phase exists to avoid.
# JACK_UNTIMED: the studio tests that check what happens, not when (refusals, ports and their
# connections, a server that dies or stalls, Ctrl-C and its replay, the recipes run as written,
# a timebase master's tempo and meter): 70 s of the JACK phase, waiting on sessions, not on the
# cores. They run in the parallel phase, still one at a time (the studio suite is serialized).
JACK_UNTIMED = alsaUnavailable|clockInRefusals|connectToNothing|failedDriverSuggestsJack|flagsNeedLive|inputWithoutServerNamesItsFlag|linkRefusals|midiInRefusals|noServer|oscInPortZero|transportRefusals|clockHasItsOwnConnection|liveAudioIsConnected|jackRecipesRun|studioRecipesRunOnJackAlone|transportGivesTempoAndMeter|clockInServerDies|liveAudioServerDies|midiInServerDies|serverDies|serverStalls|transportServerDies|interruptAndReplay
test: deps lint vendor-mirrors
	$(SWIFT) build $(RESOLVED) --build-tests
	$(SWIFT) build $(RESOLVED) --product ClumsyLV2   # the plugin tests load it; --build-tests links no library product
	$(MAKE) --no-print-directory binaries CONFIG=debug     # the install tests install it (they run no swift build)
	$(MAKE) --no-print-directory binaries CONFIG=release   # what make install ships: the toolchain-free tests run it
	CLUMSY_UNDER_TEST=$(CURDIR)/.build/release/clumsy $(SWIFT) test --skip-build --skip 'StudioEndToEndTests/(?!($(JACK_UNTIMED))\()' --skip PluginJackTests --skip PluginUITests
	CLUMSY_UNDER_TEST=$(CURDIR)/.build/release/clumsy $(SWIFT) test --skip-build --no-parallel --filter "StudioEndToEndTests|PluginJackTests|PluginUITests" --skip 'StudioEndToEndTests/($(JACK_UNTIMED))\('
	$(MAKE) --no-print-directory bench-smoke

# The shape of the code: no Swift file over 500 lines, no function over 80 (Tools/sizes.py); the
# module graph: imports exactly as Package.swift declares, no @_exported, and the diagram and
# table in docs/design.md the same as Package.swift (Tools/modulegraph.py).
lint:
	python3 Tools/sizes.py Sources Tests/TestSupport
	python3 Tools/modulegraph.py
	python3 Tools/swiftformat.py
	@command -v reuse >/dev/null || { echo "reuse is missing (make deps, or pip install reuse): the licence headers cannot be checked"; exit 1; }
	reuse lint --quiet && echo "reuse lint: compliant"

# 24 simulated hours of every bundled preset (the swarm: a 30th of that), the peak memory of
# a replay of one million control lines against one of 100 (at most 2×, issue 44), plus the
# peak memory of a 24-hour MIDI-only session. Takes a while; results go in the README.
SOAK_SECONDS ?= 86400
soak: deps
	$(SWIFT) build -c release --build-tests -Xswiftc -enable-testing
	CLUMSY_SOAK_SECONDS=$(SOAK_SECONDS) $(SWIFT) test -c release -Xswiftc -enable-testing --skip-build --filter SoakTests
	CLUMSY_REPLAY_MILLION=1 $(SWIFT) test -c release -Xswiftc -enable-testing --skip-build --filter HostileReplayMemoryTests
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product clumsy
	@mkdir -p $(OUT)
	/usr/bin/time -f "peak resident memory of a $(SOAK_SECONDS) s MIDI-only session: %M KB (%e s wall)" \
	  .build/release/clumsy run default --duration $(SOAK_SECONDS) --midi $(OUT)/soak.mid --events $(OUT)/soak.jsonl --quiet

# A long fuzzing campaign of every reader of outside input, a target each: presets (decoder
# and simulator), event logs (as roll and as replay read them), MIDI files (analyze and roll),
# OSC packets (--osc-in), batch item manifests, the LV2 plugin's control ports and
# time:Position (its engine's C interface) and the frames its UI reads, the escaping of every language Clumsy writes, and what
# JACK timebase and MIDI clock masters send (the transport and clock followers).
# CI (make test) runs 1500 inputs of each (300 of presets, the event-log readers and the plugin's ports).
FUZZ_ITERATIONS ?= 1000000
fuzz: deps
	$(SWIFT) build -c release --build-tests -Xswiftc -enable-testing
	$(SWIFT) build -c release --product ClumsyLV2 -Xswiftc -enable-testing   # the plugin-ports target loads it
	CLUMSY_FUZZ_ITERATIONS=$(FUZZ_ITERATIONS) $(SWIFT) test -c release -Xswiftc -enable-testing --skip-build --filter FuzzTests

clean:
	rm -rf .build $(OUT)

# make install [PREFIX=/usr/local] [DESTDIR=…] [CONFIG=release]: builds what is missing (no
# package manager), then installs the program, the presets, the manual pages, the completions,
# the documentation and the LV2 plugin (Tools/install.sh, docs/install.md); make uninstall
# removes exactly those files. DESTDIR and PREFIX reach the script as single-quoted words made
# from their unexpanded text ($(value …)), so a blank, a quote, `…`, $(…) or ; in them is a path
# character and runs nothing.
PREFIX ?= /usr/local
DESTDIR ?=
shellquote = '$(subst ','\'',$(1))'
INSTALL_ARGUMENTS = $(call shellquote,$(value DESTDIR)) $(call shellquote,$(value PREFIX)) $(call shellquote,$(BIN)) $(call shellquote,$(LV2_BUNDLE))
# STRIP: what strips the installed program and plugin (debian/rules passes STRIP= and leaves
# it to dh_strip, which keeps the symbols in clumsy-dbgsym).
STRIP ?= strip
install: binaries
	STRIP=$(call shellquote,$(value STRIP)) Tools/install.sh install $(INSTALL_ARGUMENTS)

# Installs the already built BIN and LV2_BUNDLE without looking at their sources.
install-files:
	STRIP=$(call shellquote,$(value STRIP)) Tools/install.sh install $(INSTALL_ARGUMENTS)

uninstall:
	Tools/install.sh uninstall $(INSTALL_ARGUMENTS)

# The manual pages (man/) and shell completions (completions/), from the argument definitions
# (clumsy --experimental-dump-help), docs/reference.md, Tools/man/ and Presets/README.md. They
# are kept in the repository, so installing, make dist and the Debian package never run the
# program (which a cross build cannot); a test fails when they are out of date.
man: build
	python3 Tools/manpages.py .build/debug/clumsy man completions

# make dist: clumsy-VERSION.tar.gz, every file git tracks (git archive of HEAD: the same bytes
# every time, with the commit's time on every file). It builds with make release elsewhere.
# Modes 644 and 755 (tar.umask=022: git archive would write 664 and 775).
# DIST_DIR: where it goes (default: the checkout).
DIST_DIR ?= .
# Beside it, clumsy-VERSION-vendor.tar.gz: the dependencies Package.resolved pins, as git
# repositories in vendor/ (Tools/vendor.py), for a build with no network. Unpacked over the
# same directory, make builds the release offline; make offline-build checks that.
DIST = $(call shellquote,$(value DIST_DIR)/clumsy-$(VERSION).tar.gz)
DIST_VENDOR = $(call shellquote,$(value DIST_DIR)/clumsy-$(VERSION)-vendor.tar.gz)
dist:
	@git diff --quiet HEAD -- || echo "note: uncommitted changes are not in the tarball (it is git archive of HEAD)"
	git -c tar.umask=022 -c tar.tar.gz.command="gzip -cn" archive --format=tar.gz --prefix=clumsy-$(VERSION)/ -o $(DIST) HEAD
	python3 Tools/vendor.py pack $(DIST_VENDOR) clumsy-$(VERSION)
	@sha256sum $(DIST) $(DIST_VENDOR)

# The release tarballs built as a buildd builds them (Tools/offline_build.sh): unpacked in a
# temporary directory, as nobody (root runs it so; anyone else in a user namespace), with an
# empty HOME, no SwiftPM cache and no network (unshare -n): make binaries, then the build
# step of make test. About 20 minutes on two cores (docs/benchmarks.md); make test runs the
# fast half, resolution alone.
offline-build:
	Tools/offline_build.sh build

# make deb: clumsy_VERSION-1_amd64.deb (the program, presets, manual pages, completions,
# documentation and the LV2 plugin) in the checkout, built by dpkg-buildpackage from debian/
# (docs/install.md). Needs debhelper and dpkg-dev.
DEB = clumsy_$(VERSION)-1_$(shell dpkg --print-architecture 2>/dev/null)
DBGSYM = clumsy-dbgsym_$(VERSION)-1_$(shell dpkg --print-architecture 2>/dev/null)
deb:
	dpkg-buildpackage -b -us -uc
	mv ../$(DEB).deb ../$(DBGSYM).deb ../$(DEB).buildinfo ../$(DEB).changes .
	@echo "built $(CURDIR)/$(DEB).deb (and its debugging symbols, $(DBGSYM).deb)"

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
	$(MAKE) --no-print-directory slow-checks SLOW_CHECKS="BatchBeatTests"

# A 1,000-item batch (MIDI, audio, labels) exported and loaded by Hugging Face datasets, as
# shards of 1,000 and of one item (make test exports and loads 12).
check-export:
	$(MAKE) --no-print-directory slow-checks SLOW_CHECKS="BatchExportTests/thousandItems"

# Checks too slow for make test (docs/benchmarks.md says when to run them): librosa's beat
# tracker on ten 60 s renders, a measurement of the music (make musicality runs it), and the
# valgrind soaks (LeakTests: a render, a drawing and a video under memcheck, minutes of CPU
# each; they need the debug build). Run by name, with CLUMSY_SLOW_CHECKS=1 (make test skips them).
SLOW_CHECKS ?= BatchBeatTests|LeakTests|BatchExportTests/thousandItems
.PHONY: slow-checks check-export
slow-checks: deps
	$(SWIFT) build --build-tests
	$(SWIFT) build --product clumsy
	$(MAKE) --no-print-directory binaries CONFIG=release
	CLUMSY_SLOW_CHECKS=1 CLUMSY_UNDER_TEST=$(CURDIR)/.build/release/clumsy $(SWIFT) test --skip-build --filter "$(SLOW_CHECKS)"

# Benchmarks (Benchmarks/bench.sh): one Markdown table in under ten minutes, release build,
# printed and written into docs/benchmarks.md with the date and the machine.
# bench-smoke runs the same code with tiny durations (seconds) on the debug build, so it never rots.
# BENCH_FLAGS adds swift build flags (e.g. BENCH_FLAGS="--scratch-path .build-bench").
BENCH_FLAGS ?=
# The release build the benchmarks run: the flags of make release, and BENCH_FLAGS.
BENCH_BUILD = $(SWIFT) build -c release $(RESOLVED) $(RELEASE_FLAGS) $(BENCH_FLAGS)
define build_bench
	$(BENCH_BUILD) --product clumsy
	$(BENCH_BUILD) --product clumsy-bench
	$(BENCH_BUILD) --product ClumsyLV2
endef
.PHONY: bench-smoke bench-check
bench: deps
	$(build_bench)
	BIN_DIR="$$($(BENCH_BUILD) --show-bin-path)" Benchmarks/bench.sh

# make bench also writes Benchmarks/last.json: each gated row's value and its ratio to a baseline
# measured in the same run (fluidsynth, bare Chipmunk, /bin/true), and the instructions that the
# MIDI row, the swarm row and the plugin's block execute (valgrind, Benchmarks/counts.sh).
# make bench-check runs the rows again and fails when a ratio is more than 15 % worse than
# last.json's, or a count more than 3 % higher (Benchmarks/ratios.py). BENCH_ARGS=--instructions:
# the counts alone (a few minutes, and the same on a busy machine). make bench-counts writes
# the counts alone into last.json, keeping its timed rows.
BENCH_ARGS ?=
.PHONY: bench-counts
bench-check: deps
	$(build_bench)
	BIN_DIR="$$($(BENCH_BUILD) --show-bin-path)" Benchmarks/bench.sh --check $(BENCH_ARGS)

bench-counts: deps
	$(build_bench)
	BIN_DIR="$$($(BENCH_BUILD) --show-bin-path)" Benchmarks/bench.sh --instructions

bench-smoke: deps
	$(SWIFT) build $(BENCH_FLAGS) --product clumsy
	$(SWIFT) build $(BENCH_FLAGS) --product clumsy-bench
	$(SWIFT) build $(BENCH_FLAGS) --product ClumsyLV2
	BIN_DIR="$$($(SWIFT) build $(BENCH_FLAGS) --show-bin-path)" Benchmarks/bench.sh --smoke
