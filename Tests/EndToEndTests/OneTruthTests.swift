// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import EventLog
import Foundation
import Presets
import Session
import Testing
import WorldDrawing
@testable import Engine

/// Issue 20: one truth about the harmony a session played. The performer names each chord
/// once, as it takes over, and every output shows that name (the test over every bundled
/// preset and every output is `OneTruthAllOutputsTests`).
@Suite("One truth about the harmony", .serialized)
struct OneTruthTests {
    /// A chord as one output names it: when it takes over and its name.
    struct Named: Equatable, CustomStringConvertible {
        var time: Double
        var name: String
        var description: String { "\(String(format: "%.3f", time)) \(name)" }
    }

    /// The chord lines of the text view: "     4.054 s  chord       → IV     Fmaj7 in C major".
    static func textChords(_ stdout: String) -> [Named] {
        stdout.split(separator: "\n").compactMap { line -> Named? in
            let words = line.split(separator: " ")
            guard words.count >= 6, words[1] == "s", words[2] == "chord", words[3] == "→", let time = Double(words[0]) else { return nil }
            return Named(time: time, name: String(words[5]))
        }
    }

    static let cases: [(preset: String, seed: Int)] = bundledPresetNames().flatMap { name in [(name, 1), (name, 2)] }

    @Test("borrowed-chords: the chords of bass.chords are the ones named everywhere (E7 on ii, not Em7)")
    func borrowedChords() async throws {
        let plan = SessionPlan(configuration: try Configuration(preset: try PresetLibrary.load("borrowed-chords"), duration: 30))
        let labels = Dictionary(PlanDrawing.drawing(for: plan).bouncers.map { ($0.hue + 1, $0.detail) }, uniquingKeysWith: { a, _ in a })
        #expect(labels[2] == "E7" && labels[1] == "Dmaj7", "\(labels.sorted { $0.key < $1.key })")
        let text = try await CLI.run(["run", "borrowed-chords", "--duration", "90", "--seed", "1", "--set", "form=false"], timeout: 120)
        let names = Set(Self.textChords(text.stdout).map(\.name))
        #expect(names.contains("E7") && !names.contains("Em7"), "\(names)")
    }
}

@Suite("Event log format")
struct EventLogFormatTests {
    static let session = #"{"t":0.000000,"kind":"session","format":FORMAT,"clumsy":"0","preset":"original","seed":"1","timestep":0.004166666666666667,"arguments":["original"]}"#

    static func log(format: String) -> String {
        session.replacingOccurrences(of: "FORMAT", with: format) + "\n"
            + #"{"t":0.000000,"kind":"chord","degree":1,"name":"Cmaj7","numeral":"I","root":"C","intervals":[0,4,7,11],"tonic":"C","mode":"major"}"# + "\n"
            + #"{"t":0.000000,"kind":"bass","voice":"bass","ball":0,"hit":0.000000,"speed":0.0000,"note":48,"velocity":127,"degree":1}"# + "\n"
            + #"{"t":1.000000,"kind":"end","step":240}"# + "\n"
    }

    @Test("A live log's session line says format 2, and reads back through the one record type")
    func sessionLineSaysFormat() throws {
        let line = ReplayRecord(arguments: ["original"], presetName: "original", seed: 1, timestep: 1.0 / 240).line
        let record = try EventLogRecord(parsing: Array(line.utf8), path: "x.jsonl", line: 1)
        #expect(record.kind == "session" && record.format == 2 && record.arguments == ["original"] && record.seed == "1", "\(line)")
        #expect(record.line == line)
    }

    @Test("replay and roll refuse a log of a format they do not know with 65, naming the file, the line and the formats they read")
    func unknownFormatIsRefused() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("future.jsonl", Self.log(format: "3"))
        try directory.write("now.jsonl", Self.log(format: "2"))
        for arguments in [["replay", "future.jsonl", "--midi", "x.mid"], ["roll", "future.jsonl", "-o", "x.png"]] {
            let result = try await CLI.run(arguments, in: directory.path, timeout: 30)
            #expect(result.status == 65 && result.stderr.contains("future.jsonl") && result.stderr.contains("line 1")
                    && result.stderr.contains("format 3") && result.stderr.contains("1 and 2"), "\(result)")
        }
        #expect(!fileExists(directory.file("x.mid")) && !fileExists(directory.file("x.png")))
        let roll = try await CLI.run(["roll", "now.jsonl", "-o", "now.png"], in: directory.path, timeout: 30)
        #expect(roll.status == 0 && fileExists(directory.file("now.png")), "\(roll)")
    }
}
