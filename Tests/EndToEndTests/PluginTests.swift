// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import MIDIFile
import Testing

// The LV2 plugin (clumsy.lv2), end to end: the bundle is assembled from the library built with
// the tests (Tools/lv2bundle.py, as `make lv2` does), and Tools/lv2host.c, a headless host on
// liblilv compiled here, runs it in 256-frame blocks at 48 kHz with the host's time:Position.

/// One MIDI message the plugin wrote (or `clumsy run` wrote to its MIDI file), at a frame
/// counted from the frame where the transport started.
struct PluginMessage: Hashable, Comparable, CustomStringConvertible {
    var frame: Int
    var bytes: [UInt8]

    static func < (a: PluginMessage, b: PluginMessage) -> Bool {
        a.frame != b.frame ? a.frame < b.frame : a.bytes.lexicographicallyPrecedes(b.bytes)
    }

    var isNoteOn: Bool { bytes.count == 3 && bytes[0] & 0xF0 == 0x90 && bytes[2] > 0 }
    var isNoteOff: Bool { bytes.count == 3 && (bytes[0] & 0xF0 == 0x80 || (bytes[0] & 0xF0 == 0x90 && bytes[2] == 0)) }
    /// Channel × 128 + note, for pairing note-ons with note-offs.
    var pitch: Int { Int(bytes[0] & 0x0F) * 128 + Int(bytes[1]) }

    var description: String { "\(frame): " + bytes.map { String(format: "%02X", $0) }.joined(separator: " ") }
}

/// Tools/lv2host.c compiled once for every harness of a test run (it was once per harness: 68
/// compilations, 28 s of CPU): into the build directory beside the products, again only when
/// the source is newer, written under a temporary name and renamed, so two test processes
/// never run a half-written host.
actor HostBuild {
    static let shared = HostBuild()
    private var build: Task<String, any Error>?

    /// The compiled host's path.
    func path() async throws -> String {
        if build == nil { build = Task { try await Self.compile(into: CLI.productsDirectory + "/lv2host-tests") } }
        return try await build!.value
    }

    private static func compile(into host: String) async throws -> String {
        let source = projectRoot + "/Tools/lv2host.c"
        func modified(_ path: String) -> Date? { (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date }
        if let built = modified(host), let written = modified(source), built > written { return host }
        let flags = try await CLI.run(["--cflags", "--libs", "lilv-0"], executable: "/usr/bin/pkg-config")
        let words = flags.stdout.split(whereSeparator: \.isWhitespace).map(String.init)
        let partial = host + ".\(getpid()).partial"
        let compile = try await CLI.run(["-O2", "-rdynamic", "-o", partial, source] + words, executable: "/usr/bin/cc", timeout: 120)
        guard compile.status == 0, rename(partial, host) == 0 else {
            unlink(partial)
            throw HarnessFailure(result: compile)
        }
        return host
    }
}

/// A bundle in a temporary directory (removed with it) and the shared host.
final class PluginHarness {
    static let rate = 48_000.0
    let directory: TemporaryDirectory
    let bundle: String
    let host: String

    /// A bundle of the library in `products` (the tests' own build; `make test` also builds
    /// the release one, which the allocation test reads).
    init(products: String = CLI.productsDirectory) async throws {
        directory = try TemporaryDirectory(prefix: "clumsy-lv2")
        bundle = directory.file("clumsy.lv2")
        let library = products + "/libClumsyLV2.so"
        // `swift build --build-tests` compiles the plugin's modules but links no library product:
        // a library older than their object files is not what the sources say.
        let built = (try? FileManager.default.attributesOfItem(atPath: library))?[.modificationDate] as? Date
        if let source = Self.newestSource(products: products), built.map({ $0 < source.date }) ?? true {
            throw StaleLibrary(library: library, source: source.path, isMissing: built == nil)
        }
        let assemble = try await CLI.run([projectRoot + "/Tools/lv2bundle.py", library, projectRoot + "/Presets", bundle],
                                   executable: "/usr/bin/python3")
        guard assemble.status == 0 else { throw HarnessFailure(result: assemble) }
        host = try await HostBuild.shared.path()
    }

    /// The modules linked into the library (Package.swift's ClumsyLV2 and what it depends on).
    static let modules = ["ClumsyLV2", "CClumsyLV2", "Engine", "Performance", "Vocabulary", "Presets", "Controls", "MIDIWire", "Physics",
                          "CChipmunkPools", "Theory", "Geometry", "FileOutput", "Pictures", "WorldDrawing", "Text", "Errors", "Escaping"]

    /// The most recently compiled object file of `modules` (what the library is linked from).
    static func newestSource(products: String = CLI.productsDirectory) -> (path: String, date: Date)? {
        var newest: (path: String, date: Date)?
        for module in modules {
            let directory = products + "/\(module).build"
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where name.hasSuffix(".o") {
                let path = directory + "/" + name
                guard let date = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date else { continue }
                if newest.map({ date > $0.date }) ?? true { newest = (path, date) }
            }
        }
        return newest
    }

    /// The `preset` port's value for `name` (its line in presets.txt).
    func presetIndex(_ name: String) throws -> Int {
        let names = try String(contentsOfFile: bundle + "/presets.txt", encoding: .utf8).split(separator: "\n").map(String.init)
        return try #require(names.firstIndex(of: name), "\(name) is not in presets.txt: \(names)")
    }

    /// Runs the plugin `seconds` with `arguments` (options and transport changes, see lv2host.c).
    func run(seconds: Double, _ arguments: [String]) async throws -> (messages: [PluginMessage], result: RunResult) {
        let result = try await CLI.run([bundle, String(seconds)] + arguments, executable: host, timeout: 300)
        guard result.status == 0, !result.signalled else { throw HarnessFailure(result: result) }
        let messages = result.stdoutLines.map { line in
            let fields = line.split(separator: " ").compactMap { Int($0) }
            return PluginMessage(frame: fields[0], bytes: fields.dropFirst().map { UInt8($0) })
        }
        return (messages, result)
    }
}

struct StaleLibrary: Error, CustomStringConvertible {
    var library: String
    var source: String
    var isMissing: Bool
    var description: String {
        (isMissing ? "no \(library)" : "\(library) is older than \(source)") + ": build it with `swift build --product ClumsyLV2` (make test does)"
    }
}

struct HarnessFailure: Error, CustomStringConvertible {
    var result: RunResult
    var description: String { "the plugin harness failed: \(result)" }
}

/// The note-ons and note-offs of a MIDI file of a session at `bpm` before frame `end`, at
/// frames of `rate`. Ticks become frames through the session's tempo, not the file's tempo
/// event: that holds whole microseconds per quarter (666667 at 90 bpm), a third of a
/// microsecond per quarter off, a frame and a half after a minute.
func fileNotes(_ path: String, bpm: Double, rate: Double, before end: Int) throws -> [PluginMessage] {
    let contents = try MIDIFileReader.read(path: path)
    let framesPerTick = rate * 60 / (bpm * Double(contents.ticksPerQuarter))
    var notes: [PluginMessage] = []
    for track in contents.tracks {
        for event in track {
            let frame = Int((Double(event.tick) * framesPerTick).rounded())
            guard frame < end else { continue }
            switch event.message {
            case .noteOn(let channel, let note, let velocity) where velocity > 0:
                notes.append(PluginMessage(frame: frame, bytes: [0x90 | channel, note, velocity]))
            case .noteOff(let channel, let note, _), .noteOn(let channel, let note, _):
                notes.append(PluginMessage(frame: frame, bytes: [0x80 | channel, note, 0]))
            default:
                break
            }
        }
    }
    return notes.sorted()
}

/// Note-ons in `frames` frames from `start` + `gap`, at frames relative to `start`.
func noteOns(_ messages: [PluginMessage], from start: Int, gap: Int = 0, frames: Int) -> [PluginMessage] {
    messages.filter { $0.isNoteOn && $0.frame >= start + gap && $0.frame < start + frames }
        .map { PluginMessage(frame: $0.frame - start, bytes: $0.bytes) }.sorted()
}

/// The first place two sorted lists differ, for a readable failure.
func firstDifference(_ a: [PluginMessage], _ b: [PluginMessage]) -> String {
    for (index, (x, y)) in zip(a, b).enumerated() where x != y { return "at #\(index): plugin \(x), clumsy run \(y)" }
    return "lengths \(a.count) (plugin) and \(b.count) (clumsy run)"
}

@Suite("LV2 plugin", .serialized)
struct PluginTests {
    static let seconds = 60.0

    @Test("lv2_validate passes on the bundle, lv2ls lists it, lv2info shows its ports and presets")
    func bundleIsValid() async throws {
        let harness = try await PluginHarness()
        let validate = try await CLI.run([harness.bundle + "/manifest.ttl", harness.bundle + "/clumsy.ttl", harness.bundle + "/presets.ttl"],
                                   executable: "/usr/bin/lv2_validate", timeout: 120)
        #expect(validate.status == 0, "\(validate)")
        #expect(validate.stdout.contains("Found 0 errors"), "\(validate)")
        let path = ["LV2_PATH": harness.directory.path]
        let list = try await CLI.run([], executable: "/usr/bin/lv2ls", environment: path)
        #expect(list.stdoutLines == ["urn:clumsy:lv2"], "\(list)")
        let info = try await CLI.run(["urn:clumsy:lv2"], executable: "/usr/bin/lv2info", environment: path)
        #expect(info.status == 0, "\(info)")
        for symbol in ["control", "midi_out", "preset", "seed", "gravity", "speed", "key", "mode", "quantize", "swing", "balls",
                       "bass_channel", "keys_channel", "notify", "drop", "degree", "bar", "section"] {
            #expect(info.stdout.contains("Symbol:      \(symbol)\n"), "no port \(symbol) in \(info)")
        }
        for name in bundledPresetNames() {
            #expect(info.stdout.contains("= \"\(name)\""), "the preset port lacks \(name)")
        }
        // The output ports come after every older port: a host's saved session keeps its indices.
        for (index, symbol) in [(13, "notify"), (14, "drop"), (15, "degree"), (16, "bar"), (17, "section")] {
            #expect(info.stdout.contains("Port \(index):\n") && info.stdout.components(separatedBy: "Port \(index):\n").last?
                .split(separator: "\n").first { $0.contains("Symbol:") }?.hasSuffix(" \(symbol)") == true, "port \(index) is not \(symbol)")
        }
    }

    @Test("a time:Position at 120 bpm, rolling: the notes of clumsy run, at the same frames",
          arguments: [("default", 7), ("pulse", 3)])
    func sameNotesAsRun(preset: String, seed: Int) async throws {
        try await compare(preset: preset, seed: seed, bpm: 120)
    }

    @Test("at 90 bpm the notes are clumsy run --tempo 90's, so the stomp falls on the host's beats 1 and 3")
    func followsHostTempo() async throws {
        let notes = try await compare(preset: "pulse", seed: 3, bpm: 90)
        let beat = Int(PluginHarness.rate * 60 / 90)   // 32000 frames
        let stomps = notes.filter { $0.isNoteOn && $0.bytes[0] & 0x0F == 9 && $0.bytes[1] == 36 }
        #expect(stomps.count >= Int(Self.seconds * 1.5 / 2) - 1, "\(stomps.count) stomps in \(Self.seconds) s")
        for stomp in stomps { #expect(stomp.frame % (2 * beat) == 0, "a stomp at \(stomp.frame), off beats 1 and 3") }
    }

    /// Runs the plugin and `clumsy run` with the same preset, seed and tempo; expects the same
    /// note-ons and note-offs at the same frames over `seconds`. Returns the plugin's notes.
    @discardableResult
    private func compare(preset: String, seed: Int, bpm: Int) async throws -> [PluginMessage] {
        let harness = try await PluginHarness()
        let midi = harness.directory.file("run.mid")
        let run = try await CLI.run(["run", preset, "--seed", "\(seed)", "--tempo", "\(bpm)", "--duration", "\(Int(Self.seconds))",
                               "--midi", midi, "--quiet"], timeout: 120)
        #expect(run.status == 0, "\(run)")
        let end = Int(Self.seconds * PluginHarness.rate)
        let expected = try fileNotes(midi, bpm: Double(bpm), rate: PluginHarness.rate, before: end)
        let (messages, _) = try await harness.run(seconds: Self.seconds, ["--preset", "\(try harness.presetIndex(preset))",
                                                                    "--seed", "\(seed)", "--bpm", "\(bpm)"])
        let notes = messages.filter { ($0.isNoteOn || $0.isNoteOff) && $0.frame < end }.sorted()
        #expect(expected.count > 100, "only \(expected.count) notes in \(midi)")
        #expect(notes == expected, "\(preset) seed \(seed) at \(bpm) bpm: \(firstDifference(notes, expected))")
        return notes
    }

    @Test("a stop ends every sounding note at the stop's frame, and nothing plays until the transport rolls again")
    func stopEndsSoundingNotes() async throws {
        let harness = try await PluginHarness()
        // 2.1 s in, in the middle of a block; at 120 bpm pulse has notes sounding then.
        let stop = 100_900
        let (messages, _) = try await harness.run(seconds: 4, ["--preset", "\(try harness.presetIndex("pulse"))", "--seed", "3",
                                                         "\(stop):speed=0"])
        var sounding: Set<Int> = []
        var endedAtStop: Set<Int> = []
        for message in messages {
            if message.frame < stop {
                if message.isNoteOn { sounding.insert(message.pitch) } else if message.isNoteOff { sounding.remove(message.pitch) }
            } else {
                #expect(message.frame == stop && message.isNoteOff, "after the stop: \(message)")
                endedAtStop.insert(message.pitch)
            }
        }
        #expect(!sounding.isEmpty, "nothing sounding at the stop: the test proves nothing")
        #expect(endedAtStop == sounding, "sounding \(sounding.sorted()), ended at the stop \(endedAtStop.sorted())")
    }

    @Test("a relocation to bar 33 plays clumsy run's notes from bar 33 on, and the same again on the second jump there")
    func relocationIsDeterministic() async throws {
        let harness = try await PluginHarness()
        // Bar 33 is bar 32 counted from 0 in time:Position: 128 beats, 64 s at 120 bpm.
        let first = 240_000, second = 960_000, window = 480_000
        let (messages, _) = try await harness.run(seconds: 31, ["--preset", "\(try harness.presetIndex("pulse"))", "--seed", "3",
                                                          "\(first):bar=32,beat=0", "\(second):bar=32,beat=0"])
        // The worker builds the bar's session after the block of the jump: that block is silent.
        let gap = 512
        let once = noteOns(messages, from: first, gap: gap, frames: window)
        let twice = noteOns(messages, from: second, gap: gap, frames: window)
        #expect(once.count > 50, "\(once.count) notes in the 10 s after the jump")
        #expect(once == twice, "the two jumps to bar 33: \(firstDifference(once, twice))")

        let midi = harness.directory.file("run.mid")
        let run = try await CLI.run(["run", "pulse", "--seed", "3", "--tempo", "120", "--duration", "80", "--midi", midi, "--quiet"], timeout: 120)
        #expect(run.status == 0, "\(run)")
        let bar33 = 64 * Int(PluginHarness.rate)
        let session = noteOns(try fileNotes(midi, bpm: 120, rate: PluginHarness.rate, before: bar33 + window), from: bar33, gap: gap, frames: window)
        #expect(once == session, "after the jump against clumsy run from 64 s: \(firstDifference(once, session))")
    }

    @Test("the transport 2560 frames ahead of the blocks (an xrun) is no relocation: the session catches up, sounding notes ring on")
    func skipIsNoRelocation() async throws {
        let harness = try await PluginHarness()
        let at = 240_000, skip = 2_560, window = 480_000
        let preset = ["--preset", "\(try harness.presetIndex("pulse"))", "--seed", "3"]
        let (skipped, _) = try await harness.run(seconds: 20, preset + ["\(at):skip=\(skip)"])
        let (plain, _) = try await harness.run(seconds: 20, preset)
        // From the block after the skip on, every message is the plain run's at its transport frame.
        let after = skipped.filter { $0.frame >= at + 256 && $0.frame < at + window }.sorted()
        let expected = plain.filter { $0.frame >= at + skip + 256 && $0.frame < at + skip + window }
            .map { PluginMessage(frame: $0.frame - skip, bytes: $0.bytes) }.sorted()
        #expect(after.count > 40, "\(after.count) messages after the skip")
        #expect(after == expected, "\(firstDifference(after, expected))")
        // Notes struck before the skip end after it, where they would have: nothing was cut.
        let struck = Set(skipped.filter { $0.isNoteOn && $0.frame < at }.map(\.pitch))
        let ringing = after.filter { off in
            off.isNoteOff && struck.contains(off.pitch) && !after.contains { $0.isNoteOn && $0.pitch == off.pitch && $0.frame <= off.frame }
        }
        #expect(!ringing.isEmpty, "no note rang across the skip: the test proves nothing")
    }

    @Test("starting again from bar 1 after a stop plays the session again from its start")
    func startRestarts() async throws {
        let harness = try await PluginHarness()
        let stop = 288_000, start = 336_000, window = 240_000
        let (messages, _) = try await harness.run(seconds: 13, ["--preset", "\(try harness.presetIndex("default"))", "--seed", "7",
                                                          "\(stop):speed=0", "\(start):speed=1,bar=0,beat=0"])
        let gap = 512
        let opening = noteOns(messages, from: 0, gap: gap, frames: window)
        let again = noteOns(messages, from: start, gap: gap, frames: window)
        #expect(opening.count > 5, "\(opening.count) notes in the first 5 s")
        #expect(opening == again, "after the restart: \(firstDifference(again, opening))")
        #expect(!messages.contains { $0.isNoteOn && $0.frame >= stop && $0.frame < start }, "notes while stopped")
    }
}
