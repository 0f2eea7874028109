// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// `--help` of every command compared with a checked-in snapshot, so a changed help text is a
/// reviewed change. Re-record after an intended change with
/// `CLUMSY_RECORD_GOLDEN=1 swift test --filter HelpGoldenTests`, then review the diff.
@Suite("Help snapshots")
struct HelpGoldenTests {
    struct Command: Sendable, CustomTestStringConvertible {
        var program: String
        var arguments: [String]
        var golden: String
        var testDescription: String { ([program] + arguments).joined(separator: " ") }
    }

    static let commands: [Command] = [
        Command(program: "clumsy", arguments: ["--help"], golden: "clumsy.txt"),
        Command(program: "clumsy", arguments: ["run", "--help"], golden: "clumsy-run.txt"),
        Command(program: "clumsy", arguments: ["replay", "--help"], golden: "clumsy-replay.txt"),
        Command(program: "clumsy", arguments: ["recover", "--help"], golden: "clumsy-recover.txt"),
        Command(program: "clumsy", arguments: ["draw", "--help"], golden: "clumsy-draw.txt"),
        Command(program: "clumsy", arguments: ["roll", "--help"], golden: "clumsy-roll.txt"),
        Command(program: "clumsy", arguments: ["presets", "--help"], golden: "clumsy-presets.txt"),
        Command(program: "clumsy", arguments: ["validate", "--help"], golden: "clumsy-validate.txt"),
        Command(program: "clumsy", arguments: ["tones", "--help"], golden: "clumsy-tones.txt"),
        Command(program: "clumsy", arguments: ["analyze", "--help"], golden: "clumsy-analyze.txt"),
        Command(program: "clumsy", arguments: ["batch", "--help"], golden: "clumsy-batch.txt"),
        Command(program: "clumsy", arguments: ["batch", "merge", "--help"], golden: "clumsy-batch-merge.txt"),
        Command(program: "clumsy", arguments: ["batch", "export", "--help"], golden: "clumsy-batch-export.txt"),
        Command(program: "clumsy-bench", arguments: ["--help"], golden: "clumsy-bench.txt"),
    ]

    /// Where the snapshots live in the source tree (read directly, so re-recording needs no rebuild).
    static let directory = projectRoot + "/Tests/EndToEndTests/Help"

    @Test("--help matches its snapshot in Tests/EndToEndTests/Help", arguments: commands)
    func help(_ command: Command) async throws {
        let executable = command.program == "clumsy" ? CLI.executable : CLI.productsDirectory + "/" + command.program
        let result = try await CLI.run(command.arguments, executable: executable, environment: ["COLUMNS": "80"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        let path = Self.directory + "/" + command.golden
        if ProcessInfo.processInfo.environment["CLUMSY_RECORD_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(atPath: Self.directory, withIntermediateDirectories: true)
            try Data(result.stdout.utf8).write(to: URL(fileURLWithPath: path))
            return
        }
        let expected = try #require(try? String(contentsOfFile: path, encoding: .utf8),
                                    "no snapshot \(path); record with CLUMSY_RECORD_GOLDEN=1")
        #expect(result.stdout == expected,
                "\(command.testDescription) differs from \(path); if intended, re-record with CLUMSY_RECORD_GOLDEN=1 and review the diff")
    }
}
