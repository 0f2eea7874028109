// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import EventLog
import Foundation
import Presets
import TestSupport
import Testing
import Text
@testable import Session
#if canImport(Glibc)
import Glibc
#endif

/// Random mutations of what every reader takes from outside — presets, event logs (as `roll`
/// and as `replay` read them), MIDI files, OSC packets — by one mutation engine (`Mutator`),
/// seeded from real files: clean errors or valid results, never a crash or a hang.
/// CI runs a short campaign of each (1,500 inputs; 300 where an input costs a session: presets,
/// the two event-log readers and the plugin's ports, about 80 % of the suite's fuzzing CPU at
/// 1,500); `make fuzz` sets CLUMSY_FUZZ_ITERATIONS for a long one (1,000,000 of each).
/// Inputs that once crashed a reader are in FuzzRegressions/<target>/ and run first.
@Suite(.serialized) struct FuzzTests {
    /// CLUMSY_FUZZ_ITERATIONS, or `quick` (make test's campaign).
    static func iterations(quick: Int) -> Int {
        if let text = getenv("CLUMSY_FUZZ_ITERATIONS"), let n = Int(String(cString: text)) { return n }
        return quick
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    static func contents(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: root + "/" + path))) }

    /// Event log seeds: the start of a golden log (each line kind), and a live log with its
    /// session line, controls of every kind and its end line.
    static func eventLogSeeds() throws -> [[UInt8]] {
        let golden = try contents("Tests/EndToEndTests/Golden/original-20s-seed1.jsonl")
        let lines = golden.split(separator: UInt8(ascii: "\n")).map(Array.init)
        let record = ReplayRecord(arguments: ["original", "--seed", "1"], presetName: "original", seed: 1, timestep: 1.0 / 240)
        let live = [record.line,
                    "{\"t\":1.000000,\"kind\":\"bass\",\"voice\":\"bass\",\"ball\":0,\"hit\":1.000000,\"speed\":1.5,\"note\":50,\"velocity\":90,\"degree\":2}",
                    "{\"t\":4.870833,\"kind\":\"control\",\"step\":1169,\"control\":\"gravity\",\"value\":3.5}",
                    "{\"t\":5.000000,\"kind\":\"control\",\"step\":1200,\"control\":\"key\",\"tonic\":\"Eb\",\"mode\":\"dorian\"}",
                    "{\"t\":6.000000,\"kind\":\"control\",\"step\":1440,\"control\":\"drop\"}",
                    "{\"t\":10.000000,\"kind\":\"end\",\"step\":2400}"].joined(separator: "\n") + "\n"
        return [Array(lines.prefix(12).joined(separator: [10])) + [10], Array(lines.suffix(6).joined(separator: [10])), Array(live.utf8)]
    }

    static func regressions(_ target: String) -> [[UInt8]] {
        let directory = root + "/Tests/SessionTests/FuzzRegressions/" + target
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
        return names.compactMap { try? [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/" + $0))) }
    }

    /// The campaign: regression inputs first, then `iterations` mutated ones.
    func campaign(_ target: FuzzTarget, quick: Int = 1500) throws {
        let iterations = Self.iterations(quick: quick)
        let directory = try TemporaryDirectory(prefix: "clumsy-fuzz-\(target.name)")
        defer { withExtendedLifetime(directory) {} }   // only its path is used below
        // The file each input is written to (read by file readers, and the crashing input after a crash).
        let scratch = directory.file("input" + (target.name.contains("event-log") ? ".jsonl" : ".mid"))
        for input in Self.regressions(target.name) + target.seeds {
            FuzzTarget.write(input, to: scratch)
            do { _ = try target.check(input, scratch) } catch { Issue.record("\(target.name) regression input gave \(error)") }
        }
        let report = target.campaign(iterations: iterations, seed: 20261122, scratch: scratch)
        print(report)
        for finding in report.findings { Issue.record("\(target.name): \(finding)") }
        #expect(report.longest < 10, "\(report)")
        #expect(report.inputs == iterations && report.accepted > 0 && report.rejected > 0, "\(report)")
    }

    @Test func presets() throws {
        let corpus = try PresetLibrary.bundled().map { try Preset.readFile($0.path) }
        #expect(corpus.count >= 5)
        try campaign(.preset(seeds: corpus), quick: 300)
    }

    @Test func rollEventLogs() throws { try campaign(.rollEventLog(seeds: Self.eventLogSeeds()), quick: 300) }

    @Test func replayEventLogs() throws { try campaign(.replayEventLog(seeds: Self.eventLogSeeds()), quick: 300) }

    @Test func midiFiles() throws { try campaign(.midiFile(seeds: [try Self.contents("Tests/MIDIFileTests/Golden/small.mid")])) }

    @Test func oscPackets() throws { try campaign(.oscPacket(seeds: FuzzTarget.oscSeeds)) }

    /// What JACK timebase masters and MIDI clock masters send, as the followers take it (issue 44).
    @Test func masterClocks() throws { try campaign(.masterClocks()) }

    @Test func escaping() throws {
        let seeds = ["X\"\u{301} = #(system \"touch pwned\") t = \"\u{301}", "x'\u{301}; touch pwned; : '\u{301}",
                     "\u{202E}evil\u{202C} \u{1B}[2J\u{0} &<>\"' e\u{301}", "default"].map { Array($0.utf8) }
        try campaign(.escaping(seeds: seeds))
    }

    @Test func batchManifests() throws {
        let seeds = ["{\"preset\":\"default\",\"seed\":7}\n{\"preset\":\"polska\",\"settings\":{\"key.tonic\":\"Eb\",\"tempo\":96}}\n",
                     "{\"preset\":\"Presets/swarm.json\",\"seed\":\"18446744073709551615\"}\r\n\n", "{\"preset\":\"--help\"}\n"]
        try campaign(.batchManifest(seeds: seeds.map { Array($0.utf8) }))
    }

    /// The plugin's control ports and time:Position through the engine's C interface, in the
    /// library `make test` and `make fuzz` build beside the tests.
    @Test func pluginPorts() throws {
        let (library, bundle) = try pluginBundle()
        defer { withExtendedLifetime(bundle) {} }   // the engine reads its presets at each activate
        let driver = try #require(PluginEngineDriver(library: library, bundle: bundle.path), "the plugin's engine did not load")
        try campaign(.pluginPorts(driver: driver), quick: 300)
    }

    /// The frames the plugin's UI reads from its host (the notify port's), drawn as its window draws them.
    @Test func pluginFrames() throws {
        let (library, bundle) = try pluginBundle()
        defer { withExtendedLifetime(bundle) {} }   // the view reads its preset at its first drawing
        let view = try #require(PluginViewDriver(library: library, bundle: bundle.path), "the plugin's view did not load")
        try campaign(.pluginFrames(driver: view))
    }

    /// The library beside the tests, and a bundle of the presets for it (presets.txt, presets/).
    private func pluginBundle() throws -> (library: String, bundle: TemporaryDirectory) {
        let library = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().path + "/libClumsyLV2.so"
        try #require(FileManager.default.fileExists(atPath: library), "no \(library): swift build --product ClumsyLV2 (make test and make fuzz do)")
        let bundle = try TemporaryDirectory(prefix: "clumsy-fuzz-bundle")
        try FileManager.default.createDirectory(atPath: bundle.path + "/presets", withIntermediateDirectories: true)
        let presets = PresetLibrary.bundled()
        for entry in presets { try FileManager.default.copyItem(atPath: entry.path, toPath: bundle.path + "/presets/\(entry.name).json") }
        try (presets.map(\.name).joined(separator: "\n") + "\n").write(toFile: bundle.path + "/presets.txt", atomically: true, encoding: .utf8)
        return (library, bundle)
    }

    @Test func writerRoundTripsEveryBundledPreset() throws {
        for entry in PresetLibrary.bundled() {
            let bytes = try Preset.readFile(entry.path)
            let value = try JSONParser.parse(bytes)
            let again = try JSONParser.parse(Array(JSONWriter.text(value).utf8))
            #expect(value == again)
        }
    }
}
