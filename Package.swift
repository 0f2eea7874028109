// swift-tools-version: 6.0
// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import PackageDescription

let uncheckedExclusivityInRelease: [SwiftSetting] = [
    .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)),
]

// C of Clumsy's own is compiled with every warning an error.
let strictC: [CSetting] = [
    .unsafeFlags(["-Wall", "-Wextra", "-Wpedantic", "-Werror"]),
]

// The modules every test resolves, steps or reads through (the layout's flood fill, the
// simulator, the strict JSON parser, the event log's lines, the MIDI file, the mix and its
// meters) are optimised in debug builds too:
// unoptimised, they were most of the CPU of `make test`'s test process (perf, docs/benchmarks.md).
// The semantics are the release build's (no fast-math in Swift), which the goldens already
// hold both builds to; a debugger steps through them as through any optimised code.
let optimizedInDebug: [SwiftSetting] = [
    .unsafeFlags(["-O"], .when(configuration: .debug)),
]

// Release builds carry the Swift runtime inside them (docs/install.md): the installed `clumsy` and
// the LV2 plugin run where the Debian libraries are, without the Swift toolchain. The Makefile
// builds releases with `--static-swift-stdlib`, which SwiftPM applies to executables only; the
// plugin (a shared library a host dlopens) links the runtime statically here, its symbols made
// local (--exclude-libs), so a host that loads another Swift plugin, or is itself Swift, keeps
// its own runtime apart.
let staticSwiftRuntimeInPlugin: [LinkerSetting] = [
    .unsafeFlags(["-static-stdlib", "-Xlinker", "--exclude-libs", "-Xlinker", "ALL"], .when(configuration: .release)),
]

let package = Package(
    name: "Clumsy",
    products: [
        .executable(name: "clumsy", targets: ["clumsy"]),
        .executable(name: "clumsy-bench", targets: ["clumsy-bench"]),
        // The LV2 plugin's shared library (`make lv2` puts it in .build/lv2/clumsy.lv2).
        .library(name: "ClumsyLV2", type: .dynamic, targets: ["ClumsyLV2"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.5.0"),
    ],
    targets: [
        // System libraries from Debian (libchipmunk-dev, libfluidsynth-dev).
        .systemLibrary(name: "CChipmunk", path: "Sources/CChipmunk"),
        .systemLibrary(name: "CFluidSynth", path: "Sources/CFluidSynth"),
        // libsndfile1-dev (WAV/FLAC/Ogg writing at 16/24/32f bits) and libebur128-dev (EBU R128 loudness).
        .systemLibrary(name: "CSndfile", path: "Sources/CSndfile"),
        .systemLibrary(name: "CEBUR128", path: "Sources/CEBUR128"),
        // Debian's libcairo2-dev: pictures and video frames.
        .systemLibrary(name: "CCairo", path: "Sources/CCairo"),
        // Live MIDI and OSC (libjack-jackd2-dev, libasound2-dev, liblo-dev); only Studio imports them.
        // The JACK and ALSA shims are C of Clumsy's own (the real-time process callbacks, the
        // rings, the sequencer's wrappers): compiled once, in their own .c file, with every
        // warning an error, and declared in include/ for Studio.
        .target(name: "CJack", cSettings: strictC, linkerSettings: [.linkedLibrary("jack")]),
        .target(name: "CALSA", cSettings: strictC, linkerSettings: [.linkedLibrary("asound")]),
        .systemLibrary(name: "CLo", path: "Sources/CLo"),

        .target(name: "Theory"),
        // Quoting for every language Clumsy writes (LilyPond, shell, Turtle, XML, JSON), per Unicode scalar.
        .target(name: "Escaping"),
        // Vector and Rect: plain 2-D values that Physics computes with and Pictures draws.
        .target(name: "Geometry"),
        // Runtime exclusivity checks cost a fifth of all instructions in the stepping loop
        // (measured with callgrind; outputs byte-identical without them). The compiler's static
        // checks still apply; debug builds and tests keep the runtime checks.
        .target(name: "CChipmunkPools"),
        // Ableton Link (Debian's ableton-link-dev, header-only C++) behind a small C interface.
        .target(name: "CLink", cxxSettings: [.define("LINK_PLATFORM_LINUX", to: "1")], linkerSettings: [.linkedLibrary("pthread")]),
        .target(name: "Physics", dependencies: ["Geometry", "CChipmunk", "CChipmunkPools"], swiftSettings: uncheckedExclusivityInRelease + optimizedInDebug),
        // The session's vocabulary: the values a preset names and the performer and the sinks
        // play by (meter, grid, clock, tones, drums, velocity curves, pans, performance choices).
        .target(name: "Vocabulary", dependencies: ["Theory"]),
        // SessionError: every way a session can fail, with its exit status (sysexits.h).
        .target(name: "Errors"),
        .target(name: "Performance", dependencies: ["Theory", "Vocabulary"], swiftSettings: optimizedInDebug),
        // One way to write a file (swift-system's FilePath, FileDescriptor and Errno underneath).
        .target(name: "FileOutput", dependencies: [.product(name: "SystemPackage", package: "swift-system")]),
        // The MIDI writer runs inside the stepping loop of every MIDI-only session: its runtime
        // exclusivity checks were a third of its instructions.
        .target(name: "MIDIFile", dependencies: ["FileOutput", "MIDIWire"], swiftSettings: uncheckedExclusivityInRelease + optimizedInDebug),
        // `clumsy analyze`: key, chords and statistics of any Standard MIDI File.
        .target(name: "Analysis", dependencies: ["Theory", "MIDIFile", "Text", "FileOutput"]),
        .target(name: "Sound", dependencies: ["Vocabulary", "MIDIWire", "CFluidSynth", "CSndfile", "CEBUR128", "FileOutput"], swiftSettings: uncheckedExclusivityInRelease + optimizedInDebug),
        .target(name: "Pictures", dependencies: ["Geometry", "CCairo", "FileOutput"]),
        // A session plan as the values Pictures draws: `clumsy draw`, the video and the LV2 plugin's UI.
        .target(name: "WorldDrawing", dependencies: ["Engine", "Performance", "Pictures", "Text", "Theory", "Vocabulary"]),
        // One MIDI message as it goes on the wire, pure Swift without C libraries: Studio's live
        // ports and the LV2 plugin both speak it (the plugin must not link JACK, ALSA or liblo).
        .target(name: "MIDIWire"),
        .target(name: "Studio", dependencies: ["MIDIWire", "CJack", "CALSA", "CLo", "CLink"]),
        // Text every module writes or reads: numbers and durations as people write them, quoting
        // for messages, strict JSON, input files, the environment and the program's name.
        // `Clumsy.version` comes from the VERSION file, written into Version.swift at build time.
        .target(name: "Text", dependencies: ["Errors", "Escaping", "FileOutput"], swiftSettings: optimizedInDebug, plugins: ["VersionPlugin"]),
        // What a user changes in a running session: the live controls table (OSC, scenes, the
        // event log, replay, the plugin, MIDI in) and the ranges a control and its preset field share.
        .target(name: "Controls", dependencies: ["Text", "Theory", "Vocabulary"]),
        // The preset format: the settings table, validation and the bundled library. Only the
        // resolver (Engine) and the command line's preset commands import it.
        .target(name: "Presets", dependencies: ["Controls", "Errors", "Text", "Theory", "Vocabulary", "FileOutput"], swiftSettings: optimizedInDebug),
        .executableTarget(name: "clumsy-version", path: "Sources/ClumsyVersion"),
        .plugin(name: "VersionPlugin", capability: .buildTool(), dependencies: ["clumsy-version"]),
        // The engine: the resolved session plan, the fixed-step loop and the session's rules.
        .target(name: "Engine", dependencies: ["Controls", "Errors", "Theory", "Geometry", "Physics", "Vocabulary", "Performance", "Presets", "Text", "FileOutput", "MIDIWire"],
                swiftSettings: uncheckedExclusivityInRelease + optimizedInDebug),
        // The outputs (sinks: MIDI file, event log, sound, text) and the runner that wires a plan to them.
        // The event log's format, the replay record and the terminal's lines: no C library beyond
        // the engine's, so `batch` reads logs without linking the studio or the pictures.
        .target(name: "EventLog", dependencies: ["Controls", "Errors", "Vocabulary", "Performance", "Text", "Theory", "Engine", "FileOutput"],
                swiftSettings: optimizedInDebug),
        // The sinks a session writes and shows (MIDI file, audio and stems, video, score, text,
        // progress), with no studio library: a batch or a render links no JACK.
        .target(name: "Sinks", dependencies: ["Errors", "Escaping", "Theory", "Geometry", "Vocabulary", "Performance", "Text", "Engine", "EventLog", "MIDIFile", "Sound", "FileOutput", "Pictures", "WorldDrawing"],
                swiftSettings: uncheckedExclusivityInRelease),
        // Live: the only module that imports Studio (JACK, ALSA, liblo, Link): live sound and MIDI
        // ports, OSC out and in, MIDI in, and the masters a session follows (clock, transport, Link).
        .target(name: "Live", dependencies: ["Controls", "Errors", "Theory", "Vocabulary", "Performance", "Text", "Engine", "Sound", "FileOutput", "MIDIWire", "Studio", "Sinks"],
                swiftSettings: uncheckedExclusivityInRelease),
        // `clumsy draw` and `clumsy roll`: a session's world and paths, a MIDI file or event log as a piano roll.
        .target(name: "PictureCommands", dependencies: ["Controls", "Errors", "Theory", "Geometry", "Physics", "Vocabulary", "Performance", "Text", "Engine", "EventLog", "MIDIFile", "FileOutput", "Pictures", "WorldDrawing", "Sinks"],
                swiftSettings: uncheckedExclusivityInRelease),
        // The session: the outputs table and the runner that wires a plan to its sinks and sources.
        .target(name: "Session", dependencies: ["Controls", "Errors", "Vocabulary", "Performance", "Text", "Engine", "EventLog", "Sound", "FileOutput", "Sinks", "Live"],
                swiftSettings: uncheckedExclusivityInRelease),
        // The LV2 plugin (lv2-dev): a C shim owns the LV2 side (descriptor, URIDs, atoms, ports) and
        // calls the Swift engine, which steps the Simulator in the host's time (docs/plugin.md).
        // Its UI (ui.c) is an X11 window in the same library (one Swift runtime per bundle), drawn
        // by the Swift side with Cairo as `clumsy draw` draws (PlanDrawing, Pictures): the library
        // links libX11 and libcairo, which every desktop host process has loaded already.
        .target(name: "CClumsyLV2", linkerSettings: [.linkedLibrary("X11")]),
        .target(name: "ClumsyLV2", dependencies: ["CClumsyLV2", "Controls", "Errors", "Escaping", "Engine", "Geometry", "MIDIWire", "Performance", "Physics", "Pictures",
                                                  "Text", "Theory", "Vocabulary", "WorldDrawing"],
                swiftSettings: uncheckedExclusivityInRelease, linkerSettings: staticSwiftRuntimeInPlugin),
        // `clumsy batch`: many sessions, each a child `clumsy run`, sharded, with labels and manifests.
        .target(name: "Batch", dependencies: ["Controls", "Errors", "Escaping", "Theory", "Vocabulary", "Performance", "Text", "Engine", "EventLog", "MIDIFile", "Sound", "FileOutput"]),
        .executableTarget(name: "clumsy", dependencies: [
            "Errors",
            "Controls", "Session", "Sinks", "Live", "PictureCommands", "EventLog", "Engine", "Presets", "Text", "FileOutput", "Analysis", "Vocabulary", "Performance", "Theory", "Batch",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // `make bench`: in-process bare Chipmunk stepping versus the full simulator (Benchmarks/bench.sh).
        // `make docs`: the settings reference and the generated flags, from the settings table.
        .executableTarget(name: "clumsy-docs", dependencies: ["Presets"], path: "Sources/ClumsyDocs"),
        .executableTarget(name: "clumsy-bench", dependencies: [
            "Sinks", "Engine", "Physics", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], path: "Sources/ClumsyBench"),

        // What only tests use: the fuzzer (one mutation engine, a target per reader) and the JSON
        // writer. A library target kept beside the tests, out of Sources.
        .target(name: "TestSupport", dependencies: ["Errors", "Escaping", "MIDIWire", "Presets", "Text", "Engine", "EventLog", "MIDIFile", "Analysis", "Pictures", "Studio", "Batch", "Live", "PictureCommands"],
                path: "Tests/TestSupport"),
        .testTarget(name: "TheoryTests", dependencies: ["Theory"]),
        .testTarget(name: "EscapingTests", dependencies: ["Escaping"]),
        .testTarget(name: "PhysicsTests", dependencies: ["CChipmunk", "CChipmunkPools", "Geometry", "Physics"]),
        .testTarget(name: "PerformanceTests", dependencies: ["Performance", "Vocabulary", "Theory"]),
        .testTarget(name: "FileOutputTests", dependencies: ["FileOutput", "TestSupport"]),
        .testTarget(name: "MIDIFileTests", dependencies: ["MIDIFile", "FileOutput", "MIDIWire", "TestSupport"], exclude: ["make_small.py"], resources: [.copy("Golden")]),
        .testTarget(name: "SoundTests", dependencies: ["Sound", "CFluidSynth", "FileOutput", "MIDIWire", "TestSupport", "Vocabulary"]),
        .testTarget(name: "ControlsTests", dependencies: ["Controls", "Theory"]),
        .testTarget(name: "PresetsTests", dependencies: ["Controls", "Errors", "Presets"]),
        .testTarget(name: "TextTests", dependencies: ["Text"]),
        .testTarget(name: "MIDIWireTests", dependencies: ["MIDIWire"]),
        .testTarget(name: "EventLogTests", dependencies: ["EventLog", "Errors", "TestSupport"]),
        .testTarget(name: "BatchTests", dependencies: ["Batch", "Errors", "FileOutput", "TestSupport", "Text"]),
        .testTarget(name: "VocabularyTests", dependencies: ["Vocabulary"]),
        .testTarget(name: "GeometryTests", dependencies: ["Geometry"]),
        .testTarget(name: "ErrorsTests", dependencies: ["Errors"]),
        // The engine without the sinks: its rules, the masters it follows, MIDI in's rules.
        .testTarget(name: "EngineTests", dependencies: ["Controls", "Engine", "Errors", "Geometry", "MIDIWire", "Performance", "Physics", "Presets", "TestSupport", "Theory", "Vocabulary", "FileOutput"]),
        .testTarget(name: "SinksTests", dependencies: ["Engine", "Errors", "EventLog", "Performance", "Sinks", "Sound", "TestSupport", "Theory"]),
        .testTarget(name: "LiveTests", dependencies: ["Controls", "Errors", "Geometry", "Theory", "Vocabulary", "Physics", "Performance", "Presets", "Engine", "EventLog", "Live", "Sinks", "TestSupport", "MIDIWire", "Studio", "MIDIFile"]),
        .testTarget(name: "PictureCommandsTests", dependencies: ["Engine", "EventLog", "Performance", "PictureCommands", "Pictures", "Presets", "Sinks", "TestSupport", "Theory", "WorldDrawing", "FileOutput"]),
        .testTarget(name: "SessionTests", dependencies: ["Errors", "Performance", "Presets", "Text", "Engine", "EventLog", "Session", "TestSupport"], exclude: ["FuzzRegressions"]),
        .testTarget(name: "StudioTests", dependencies: ["CJack", "MIDIWire", "Studio"]),
        .testTarget(name: "PicturesTests", dependencies: ["Geometry", "Pictures"]),
        .testTarget(name: "WorldDrawingTests", dependencies: ["Engine", "Pictures", "Presets", "WorldDrawing", "TestSupport"]),
        .testTarget(name: "AnalysisTests", dependencies: ["Analysis", "Theory", "MIDIFile"], exclude: ["make_fixtures.py"]),
        .testTarget(name: "EndToEndTests", dependencies: ["Errors", "Presets", "Text", "Engine", "EventLog", "Session", "MIDIFile", "MIDIWire", "Pictures", "Studio", "TestSupport", "Live", "PictureCommands", "Sinks", "WorldDrawing"], exclude: ["Help"], resources: [.copy("Golden")]),
    ],
    swiftLanguageModes: [.v6]
)
