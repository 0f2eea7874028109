// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// `-` as an output's name (issue 33): `--midi -`, `--events -` and `--audio -` (WAV; `flac:-`,
/// `ogg:-`) write to standard output, so Clumsy pipes into sox and the like. The summary then
/// goes to standard error, and the bytes are the bytes a file of the same name would hold.
@Suite("- is standard output")
struct StandardOutputTests {
    /// Runs `command` (words already quoted for the shell) through bash with `pipefail`.
    private func shell(_ command: String, in directory: TemporaryDirectory, timeout: Double = 120) async throws -> RunResult {
        try await CLI.run(["-c", "set -o pipefail; " + command], executable: "/bin/bash", in: directory.path, timeout: timeout)
    }

    private var clumsy: String { "'" + CLI.executable + "'" }

    @Test("the issue's pipe: clumsy run default --duration 5 --audio - | sox -t wav - -n stat", .enabled(if: hasSmallSoundFont))
    func audioIntoSox() async throws {
        let directory = try TemporaryDirectory()
        let result = try await shell("\(clumsy) run default --duration 5 --audio - --soundfont \(smallSoundFont) | sox -t wav - -n stat",
                               in: directory)
        try #require(result.status == 0, "\(result)")
        // sox's stat goes to its standard error, with Clumsy's summary.
        let length = result.stderr.split(separator: "\n").first { $0.hasPrefix("Length (seconds)") }
            .flatMap { Double($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) }
        #expect(length.map { $0 > 5 } == true, "\(result)")
        #expect(result.stderr.contains("wrote standard output"), "\(result)")
        #expect(directory.entries().isEmpty, "no file named - is left: \(directory.entries())")
    }

    @Test("- holds the bytes the file would: WAV, FLAC, MIDI and the event log", .enabled(if: hasSmallSoundFont),
          arguments: [("--audio", "-", "x.wav"), ("--audio", "flac:-", "x.flac"), ("--midi", "-", "x.mid"), ("--events", "-", "x.jsonl")])
    func sameBytes(flag: String, dash: String, file: String) async throws {
        let directory = try TemporaryDirectory()
        let common = "run default --duration 4 --seed 3 --soundfont \(smallSoundFont)"
        let piped = try await shell("\(clumsy) \(common) \(flag) \(dash) | cat > piped", in: directory)
        try #require(piped.status == 0, "\(piped)")
        #expect(piped.stdout.isEmpty && piped.stderr.contains("wrote standard output"), "the summary goes to standard error: \(piped)")
        let named = try await shell("\(clumsy) \(common) \(flag) \(file)", in: directory)
        try #require(named.status == 0, "\(named)")
        let pipedBytes = try Data(contentsOf: URL(fileURLWithPath: directory.file("piped")))
        let fileBytes = try Data(contentsOf: URL(fileURLWithPath: directory.file(file)))
        #expect(pipedBytes.count > 100 && pipedBytes == fileBytes, "\(flag) \(dash): \(pipedBytes.count) bytes, the file \(fileBytes.count)")
        // Redirected by the shell (`> file`), standard output is written in place.
        let redirected = try await shell("\(clumsy) \(common) \(flag) \(dash) > redirected", in: directory)
        try #require(redirected.status == 0, "\(redirected)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.file("redirected"))) == fileBytes)
    }

    @Test("refused with 64 before anything runs: two outputs on -, a format standard output does not take, a terminal")
    func refusals() async throws {
        let directory = try TemporaryDirectory()
        let two = try await shell("\(clumsy) run default --duration 2 --midi - --events - | cat", in: directory)
        #expect(two.status == 64 && two.stderr.contains("only one output can go to standard output"), "\(two)")
        let mp3 = try await shell("\(clumsy) run default --duration 2 --audio mp3:- | cat", in: directory)
        #expect(mp3.status == 64 && mp3.stderr.contains("-, wav:-, flac:- or ogg:-"), "\(mp3)")
        // `script` gives Clumsy a terminal for its standard output (and returns its status: -e).
        let terminal = try await CLI.run(["-qec", "\(clumsy) run default --duration 2 --midi -", "/dev/null"],
                                   executable: "/usr/bin/script", in: directory.path)
        #expect(terminal.status == 64 && terminal.stdout.contains("standard output is a terminal"), "\(terminal)")
        #expect(directory.entries().isEmpty, "\(directory.entries())")
    }

    @Test("a reader that stops early: 74 with a message naming standard output, and no file named -")
    func readerStopsEarly() async throws {
        let directory = try TemporaryDirectory()
        let result = try await shell("\(clumsy) run default --duration 600 --events - | head -n 1 > first", in: directory)
        #expect(result.status == 74, "\(result)")
        #expect(result.stderr.contains("standard output") && result.stderr.contains("stopped early"), "\(result)")
        #expect(try String(contentsOfFile: directory.file("first"), encoding: .utf8).contains("\"kind\""))
        #expect(directory.entries() == ["first"], "\(directory.entries())")
    }
}
