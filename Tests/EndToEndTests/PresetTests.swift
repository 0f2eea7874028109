// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// Preset files and names: bad files (65), unknown names and missing files (66), the bundled set.
@Suite("Presets")
struct PresetTests {
    struct BadPreset: Sendable, CustomTestStringConvertible {
        var file: String
        var json: String
        /// JSON field path the message must name ("" for problems with the whole file).
        var field: String
        /// Other text the message must contain.
        var mentions: String
        var testDescription: String { file }
    }

    static let badPresets: [BadPreset] = [
        BadPreset(file: "not-json.json", json: "this is not json", field: "", mentions: "not valid JSON"),
        BadPreset(file: "unknown-field.json", json: #"{"piano": {"count": 4, "colour": "red"}}"#, field: "piano.colour", mentions: "unknown field"),
        BadPreset(file: "wrong-type.json", json: #"{"gravity": "high"}"#, field: "gravity", mentions: "expected a number"),
        BadPreset(file: "out-of-range.json", json: #"{"speed": 30}"#, field: "speed", mentions: "0.1…20"),
        BadPreset(file: "no-bouncers.json", json: #"{"bass":{"bouncers":[]}}"#, field: "bass.bouncers", mentions: "at least one"),
        BadPreset(file: "no-keys.json", json: #"{"keys":{"tones":[]}}"#, field: "keys.tones", mentions: "at least one"),
        BadPreset(file: "bad-chord.json", json: #"{"bass":{"chords":{"5":"V/H"}}}"#, field: "bass.chords.5", mentions: "Roman numeral"),
        BadPreset(file: "missing-degree.json", json: #"{"key":{"scale":"majorPentatonic"},"bass":{"chords":{"1":"IV"}}}"#, field: "bass.chords.1", mentions: "IV"),
    ]

    @Test("clumsy run <bad preset file> exits 65 naming the file and the field; writes nothing", arguments: badPresets)
    func badPresetRun(_ bad: BadPreset) async throws {
        let presets = try TemporaryDirectory()
        let path = try presets.write(bad.file, bad.json)
        let outputs = try TemporaryDirectory()
        let result = try await CLI.run(["run", path, "--duration", "1", "--midi", "o.mid", "--events", "o.jsonl"], in: outputs.path)
        #expect(result.status == 65 && !result.signalled, "\(result)")
        let location = bad.field.isEmpty ? "\(path): " : "\(path): \(bad.field): "
        #expect(result.stderr.contains(location), "stderr does not name \"\(location)\": \(result.stderr)")
        #expect(result.stderr.contains(bad.mentions), "stderr lacks \"\(bad.mentions)\": \(result.stderr)")
        #expect(result.stdout.isEmpty, "stdout: \(result.stdout)")
        #expect(outputs.entries().isEmpty, "files left behind: \(outputs.entries())")
    }

    @Test("clumsy validate on good and bad files: 65, every bad file reported, good ones ok")
    func validateMix() async throws {
        let directory = try TemporaryDirectory()
        let good = try directory.write("good.json", #"{"description": "fine", "gravity": 3, "keys": {"tones": [1, 3]}}"#)
        var arguments = ["validate", good]
        for bad in Self.badPresets { arguments.append(try directory.write(bad.file, bad.json)) }
        arguments.append(projectRoot + "/Presets/default.json")
        let result = try await CLI.run(arguments)
        #expect(result.status == 65, "\(result)")
        #expect(result.stdoutLines.sorted() == ["ok: \(good)", "ok: \(projectRoot)/Presets/default.json"].sorted(), "\(result.stdout)")
        let errorLines = result.stderr.split(separator: "\n")
        #expect(errorLines.count == Self.badPresets.count, "\(result.stderr)")
        for bad in Self.badPresets {
            let location = bad.field.isEmpty ? directory.file(bad.file) + ": " : "\(directory.file(bad.file)): \(bad.field): "
            #expect(result.stderr.contains(location), "validate did not report \(location): \(result.stderr)")
        }
        #expect(!result.stderr.contains(good))
    }

    @Test("clumsy validate on a missing file exits 66 and still checks the others")
    func validateMissing() async throws {
        let directory = try TemporaryDirectory()
        let bad = try directory.write("bad.json", #"{"tempo": 1000}"#)
        let missing = directory.file("missing.json")
        let result = try await CLI.run(["validate", missing, bad])
        #expect(result.status == 66, "\(result)")
        #expect(result.stderr.contains(missing) && result.stderr.contains("\(bad): tempo: "), "\(result.stderr)")
    }

    @Test("clumsy validate Presets/*.json: every bundled preset is valid")
    func bundledPresetsValid() async throws {
        let files = bundledPresetFiles()
        try #require(files.count >= 5, "bundled presets: \(files)")
        let result = try await CLI.run(["validate"] + files)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines == files.map { "ok: \($0)" }, "\(result.stdout)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test("Every bundled preset runs briefly from its name", arguments: bundledPresetNames())
    func bundledPresetRuns(_ name: String) async throws {
        let directory = try TemporaryDirectory()
        // Short: swarm (1000 balls) simulates about 0.6 s per second in a debug build.
        let result = try await CLI.run(["run", name, "--duration", "0.5", "--events", "e.jsonl"], in: directory.path)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains(" s of \(name) (seed "), "\(result.stdout)")
        let events = try readEventLog(directory.file("e.jsonl"))
        // The opening chord I, then its root in the bass.
        #expect(events.first?.t == 0 && events.first?.kind == "chord" && events.first?.degree == 1, "first event: \(String(describing: events.first))")
        #expect(events.dropFirst().first?.t == 0 && events.dropFirst().first?.kind == "bass", "second event: \(String(describing: events.dropFirst().first))")
    }

    @Test("An unknown preset name exits 66 and lists the bundled presets")
    func unknownName() async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "no-such-preset", "--duration", "1", "--events", "e.jsonl"], in: directory.path)
        #expect(result.status == 66, "\(result)")
        #expect(result.stderr.contains("no-such-preset"), "\(result.stderr)")
        let names = bundledPresetNames()
        try #require(names.contains("default") && names.contains("minor-storm"))
        for name in names {
            #expect(result.stderr.contains(name), "stderr does not list \(name): \(result.stderr)")
        }
        #expect(directory.entries().isEmpty)
    }

    @Test("A missing preset file exits 66 and names it", arguments: ["/nonexistent/dir/preset.json", "missing.json", "sub/missing"])
    func missingFile(_ reference: String) async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", reference, "--duration", "1", "--events", "e.jsonl"], in: directory.path)
        #expect(result.status == 66, "\(result)")
        #expect(result.stderr.contains(reference), "\(result.stderr)")
        #expect(directory.entries().isEmpty)
    }

    @Test("A directory given as the preset exits 66")
    func directoryAsPreset() async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", directory.path + "/", "--duration", "1"])
        #expect(result.status == 66, "\(result)")
    }

    @Test("clumsy presets from /tmp lists the bundled presets, default first, each with its description")
    func presetsFromAnyDirectory() async throws {
        let result = try await CLI.run(["presets"], in: "/tmp")
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let lines = result.stdoutLines
        #expect(lines.count >= 5, "\(result.stdout)")
        let names = lines.map { String($0.prefix { $0 != " " }) }
        #expect(names.first == "default", "\(result.stdout)")
        #expect(names.sorted() == bundledPresetNames().sorted(), "listed \(names)")
        for line in lines {
            let description = line.drop { $0 != " " }.trimmingCharacters(in: .whitespaces)
            #expect(description.count > 10 && !description.hasPrefix("(invalid"), "no description: \(line)")
        }
        let minorStorm = try #require(lines.first { $0.hasPrefix("minor-storm ") })
        #expect(minorStorm.contains("A harmonic minor"), "\(minorStorm)")
        // And a bundled preset runs by name from there too.
        let run = try await CLI.run(["run", "minor-storm", "--duration", "1", "--quiet"], in: "/tmp")
        #expect(run.status == 0, "\(run)")
    }
}
