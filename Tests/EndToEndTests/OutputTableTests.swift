// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Session
import Testing

/// The outputs table (`SessionOutputs`): every file output takes part in the overwrite check,
/// `replay` takes the output flags `run` takes, and the summary names every file written.
@Suite("Outputs as a table", .serialized)
struct OutputTableTests {
    /// Each file output's flag with a name its extension check accepts (`--stems` names a
    /// directory: its clash is with the stem file bass.mid inside it).
    static let fileOutputs: [(flag: String, name: String)] = [
        ("--midi", "same.mid"), ("--events", "same.jsonl"), ("--audio", "same.wav"),
        ("--video", "same.mp4"), ("--score", "same.ly"), ("--stems", "stems"),
    ]

    static var pairs: [[String]] {
        var pairs: [[String]] = []
        for (index, first) in fileOutputs.enumerated() {
            for second in fileOutputs[(index + 1)...] { pairs.append([first.flag, second.flag]) }
        }
        return pairs
    }

    @Test("Two file outputs naming one file (hard links) are refused with 64 naming both, for every pair; nothing is written",
          arguments: pairs)
    func everyPairIsChecked(pair: [String]) async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("stems"), withIntermediateDirectories: false)
        // One existing file under every name: each output's name is a hard link to stems/bass.mid.
        let original = try directory.write("stems/bass.mid", "precious")
        for output in Self.fileOutputs where output.flag != "--stems" {
            try FileManager.default.linkItem(atPath: original, toPath: directory.file(output.name))
        }
        var arguments = ["run", "original", "--duration", "2", "--size", "128x72", "--fps", "5"]
        for flag in pair {
            arguments += [flag, Self.fileOutputs.first { $0.flag == flag }!.name]
        }
        if pair.contains("--stems") && !pair.contains("--audio") { arguments += ["--audio", "other.wav"] }
        if !pair.contains("--video") { arguments.removeSubrange(4..<8) }
        let before = directory.entries()
        let result = try await CLI.run(arguments, in: directory.path)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("name the same file") && pair.allSatisfy { result.stderr.contains($0) }, "\(result)")
        #expect(directory.entries() == before, "\(arguments): created \(Set(directory.entries()).subtracting(before))")
        #expect(String(decoding: bytes(of: original) ?? [], as: UTF8.self) == "precious")
    }

    /// The flags of the file outputs, as `run --help` lists them.
    static let outputFlags = ["--midi", "--events", "--audio", "--sample-rate", "--soundfont", "--stems", "--score",
                              "--video", "--fps", "--size"]

    @Test("run lists every flag of the outputs table; replay lists every file output's flag run lists")
    func replayTakesRunsOutputFlags() async throws {
        let run = try await CLI.run(["run", "--help"], environment: ["COLUMNS": "80"])
        let replay = try await CLI.run(["replay", "--help"], environment: ["COLUMNS": "80"])
        #expect(Set(Self.outputFlags).isSubset(of: SessionOutputs.flags), "\(SessionOutputs.flags)")
        for flag in SessionOutputs.flags {
            #expect(run.stdout.contains("  \(flag) "), "run --help lacks \(flag)")
        }
        for flag in Self.outputFlags {
            #expect(run.stdout.contains("  \(flag) "), "run --help lacks \(flag)")
            #expect(replay.stdout.contains("  \(flag) "), "replay --help lacks \(flag)")
        }
    }

    @Test("A live run's --score and --stems are replayed byte for byte, and replay checks them like run (64 for a bad name)")
    func replayWritesTheSameFileOutputs() async throws {
        let directory = try TemporaryDirectory()
        let live = try await CLI.run(["run", "original", "--live", "--duration", "2", "--audio-driver", "file", "--audio", "live.wav",
                                "--events", "live.jsonl", "--midi", "live.mid", "--score", "live.ly", "--quiet"],
                               in: directory.path)
        try #require(live.status == 0, "\(live)")
        try FileManager.default.createDirectory(atPath: directory.file("stems"), withIntermediateDirectories: false)
        let replay = try await CLI.run(["replay", "live.jsonl", "--midi", "r.mid", "--score", "r.ly", "--audio", "r.wav",
                                  "--stems", "stems", "--quiet"], in: directory.path, timeout: 120)
        try #require(replay.status == 0, "\(replay)")
        #expect(bytes(of: directory.file("r.mid")) == bytes(of: directory.file("live.mid")))
        #expect(bytes(of: directory.file("r.ly")) == bytes(of: directory.file("live.ly")))
        #expect(fileExists(directory.file("stems/bass.mid")) && fileExists(directory.file("stems/bass.wav")))
        let bad = try await CLI.run(["replay", "live.jsonl", "--score", "r.pdf"], in: directory.path)
        #expect(bad.status == 64 && bad.stderr.contains("--score r.pdf: the file name must end in .ly"), "\(bad)")
    }

    @Test("The summary's \"wrote\" lists every file output written, in table order, and each exists")
    func summaryListsEveryOutput() async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("st"), withIntermediateDirectories: false)
        let result = try await CLI.run(["run", "original", "--duration", "2", "--dry", "--midi", "a.mid", "--events", "a.jsonl",
                                  "--audio", "a.wav", "--video", "v.mp4", "--size", "128x72", "--fps", "5", "--stems", "st",
                                  "--score", "a.ly"], in: directory.path, timeout: 120)
        try #require(result.status == 0, "\(result)")
        let wrote = try #require(result.stdout.components(separatedBy: "; wrote ").last, "\(result)")
        #expect(wrote.hasPrefix("a.mid, a.jsonl, a.wav, v.mp4, stems bass.wav, keys.wav"), "\(wrote)")
        #expect(wrote.contains(" in st, a.ly"), "\(wrote)")
        for name in ["a.mid", "a.jsonl", "a.wav", "v.mp4", "a.ly", "st/bass.wav", "st/bass.mid"] {
            #expect(fileExists(directory.file(name)), "\(name) missing")
        }
    }

    @Test("Without a file output the text view prints; with only --score it does not")
    func scoreIsAFileOutput() async throws {
        let directory = try TemporaryDirectory()
        let text = try await CLI.run(["run", "original", "--duration", "2"], in: directory.path)
        let score = try await CLI.run(["run", "original", "--duration", "2", "--score", "s.ly"], in: directory.path)
        try #require(text.status == 0 && score.status == 0, "\(text)\n\(score)")
        #expect(text.stdoutLines.count > 2)
        #expect(score.stdoutLines.count == 1 && score.stdout.hasSuffix("; wrote s.ly\n"), "\(score)")
    }
}
