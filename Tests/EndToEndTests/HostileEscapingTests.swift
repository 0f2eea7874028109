// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// Issue 30, finding 1: text the user chose (a preset's name, a manifest's settings) reaches a
/// language Clumsy writes (a LilyPond score, the dataset card's shell command) as data, never
/// as code, even when a quote carries a combining mark (one Swift `Character`, two scalars).
@Suite("Hostile use, round 4: escaping", .serialized)
struct HostileEscapingTests {
    /// `touch pwned` as the Scheme expression the issue used (character codes, no quotes).
    static let scheme: String = {
        let codes = "touch pwned".unicodeScalars.map { String($0.value) }.joined(separator: " ")
        return "#(system (list->string (map integer->char (quote (\(codes))))))"
    }()

    /// The preset name: a quote and U+0301, then Scheme, then a quote to close.
    static let hostileName = "X\"\u{301} = \(scheme) t = \"\u{301}"

    @Test("A preset name with \"+U+0301 engraved by lilypond runs no Scheme (name field and --set name=)",
          arguments: [false, true])
    func scoreNameIsData(throughSet: Bool) async throws {
        let lilypond = try #require(firstExecutable(["/usr/bin/lilypond", "/usr/local/bin/lilypond"]), "make deps installs lilypond")
        let directory = try TemporaryDirectory(prefix: "escape-score")
        let preset = try JSONSerialization.data(withJSONObject: ["name": throughSet ? "plain" : Self.hostileName])
        try preset.write(to: URL(fileURLWithPath: directory.file("e.json")))
        let set = throughSet ? ["--set", "name=" + Self.hostileName] : []
        let run = try await CLI.run(["run", "./e.json", "--duration", "1", "--score", "e.ly", "--quiet"] + set, in: directory.path)
        #expect(run.status == 0, "\(run)")
        let score = try String(contentsOfFile: directory.file("e.ly"), encoding: .utf8)
        #expect(score.unicodeScalars.contains("\u{301}"), "the name is kept, escaped")
        let engraved = try await CLI.run(["-dno-point-and-click", "--loglevel=ERROR", "e.ly"], executable: lilypond,
                                   in: directory.path, timeout: 300)
        #expect(engraved.status == 0, "\(engraved)")
        #expect(!fileExists(directory.file("pwned")), "the score ran the preset name's Scheme")
    }

    @Test("The dataset card's regenerate command gives back a manifest's words exactly and runs nothing")
    func cardCommandIsData() async throws {
        let directory = try TemporaryDirectory(prefix: "escape-card")
        let hostile = "x'\u{301}; touch pwned; : '\u{301}"
        let item = try JSONSerialization.data(withJSONObject: ["preset": "default", "seed": 3, "settings": ["name": hostile]])
        try item.write(to: URL(fileURLWithPath: directory.file("items.jsonl")))
        let batch = try await CLI.run(["batch", "-o", "out", "--manifest", "items.jsonl", "--duration", "1", "--outputs", "midi", "--quiet"],
                                in: directory.path, timeout: 300)
        #expect(batch.status == 0, "\(batch)")
        let card = try String(contentsOfFile: directory.file("out/README.md"), encoding: .utf8)
        let command = try #require(card.split(separator: "\n").first { $0.hasPrefix("clumsy run ") }, "\(card)")
        // `clumsy` as a shell function that writes its arguments one a line.
        let script = "clumsy() { for a in \"$@\"; do printf '%s\\n' \"$a\"; done > args; }\n" + command + "\n"
        let shell = try await CLI.run(["-c", script], executable: "/bin/sh", in: directory.path)
        #expect(shell.status == 0, "\(shell)")
        #expect(!fileExists(directory.file("pwned")), "the card's command ran the manifest's text")
        let words = try String(contentsOfFile: directory.file("args"), encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(words.contains("name=" + hostile), "\(words)")
    }
}

/// Issue 30, finding 9: replay's memory does not grow with the log's control lines.
@Suite("Hostile use, round 4: replay memory", .serialized)
struct HostileReplayMemoryTests {
    /// A live log of `default` with `count` speed controls, 200 a step.
    static func log(controls count: Int) -> String {
        var lines = ["{\"t\":0.000000,\"kind\":\"session\",\"clumsy\":\"0.1.0\",\"preset\":\"default\",\"seed\":\"3\","
                     + "\"timestep\":0.004166666666666667,\"arguments\":[\"default\"]}"]
        lines.reserveCapacity(count + 2)
        for index in 0..<count {
            let step = index / 200
            lines.append("{\"t\":\(Double(step) / 240),\"kind\":\"control\",\"step\":\(step),\"control\":\"speed\",\"value\":\(1 + index % 7)}")
        }
        lines.append("{\"t\":\(Double(count / 200 + 1) / 240),\"kind\":\"end\",\"step\":\(count / 200 + 1)}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Peak resident memory of `clumsy replay` of a log with `count` controls, KB.
    static func peak(controls count: Int, in directory: TemporaryDirectory) async throws -> Int {
        try directory.write("set\(count).jsonl", log(controls: count))
        return try await peakKilobytes(["replay", "set\(count).jsonl", "--midi", "r\(count).mid", "--quiet"], in: directory, timeout: 1200)
    }

    @Test("Replaying 80 000 and 320 000 control lines takes the same memory (within 8 MB), within 2× a log of 100's")
    func memoryIsConstant() async throws {
        let directory = try TemporaryDirectory(prefix: "replay-memory")
        let tiny = try await Self.peak(controls: 100, in: directory)
        let small = try await Self.peak(controls: 80_000, in: directory)
        let large = try await Self.peak(controls: 320_000, in: directory)
        #expect(small > 0 && large > 0 && large - small < 8 * 1024, "peak \(small) KB for 80 000 controls, \(large) KB for 320 000")
        #expect(tiny > 0 && large <= 2 * tiny, "peak \(tiny) KB for 100 controls, \(large) KB for 320 000")
    }

    /// Issue 44's acceptance, at its size: a minute of CPU, so `make soak` runs it
    /// (CLUMSY_REPLAY_MILLION=1), not `make test`, which runs the test above.
    @Test("Replaying one million control lines peaks within 2× a log of 100 control lines",
          .enabled(if: ProcessInfo.processInfo.environment["CLUMSY_REPLAY_MILLION"] == "1", "make soak runs it"))
    func millionControls() async throws {
        let directory = try TemporaryDirectory(prefix: "replay-million")
        let tiny = try await Self.peak(controls: 100, in: directory)
        let million = try await Self.peak(controls: 1_000_000, in: directory)
        print("replay peak resident memory: \(tiny) KB for 100 control lines, \(million) KB for 1 000 000")
        #expect(tiny > 0 && million > 0 && million <= 2 * tiny, "peak \(tiny) KB for 100 controls, \(million) KB for 1 000 000")
    }
}
