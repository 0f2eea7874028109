// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// Bad flag values: exit 64, a message naming the flag and its accepted range, no files.
@Suite("Bad flags")
struct FlagTests {
    struct BadFlag: Sendable, CustomTestStringConvertible {
        var flag: String
        var value: String
        /// Text of the accepted range that the message must show (nil: no range is defined for the flag).
        var range: String?
        var testDescription: String { "\(flag) \(value)" }
    }

    static let cases: [BadFlag] = [
        BadFlag(flag: "--gravity", value: "nan", range: "0…100"),
        BadFlag(flag: "--gravity", value: "inf", range: "0…100"),
        BadFlag(flag: "--gravity", value: "-1", range: "0…100"),
        BadFlag(flag: "--gravity", value: "101", range: "0…100"),
        BadFlag(flag: "--speed", value: "0", range: "0.1…20"),
        BadFlag(flag: "--speed", value: "25", range: "0.1…20"),
        BadFlag(flag: "--duration", value: "-5", range: "0.001…604800"),
        BadFlag(flag: "--duration", value: "0", range: "0.001…604800"),
        BadFlag(flag: "--duration", value: "nan", range: "0.001…604800"),
        BadFlag(flag: "--seed", value: "-1", range: "0…18446744073709551615"),
        BadFlag(flag: "--seed", value: "abc", range: "0…18446744073709551615"),
    ]

    @Test("Exit 64 naming the flag and the range; no output or temporary files", arguments: cases)
    func rejected(_ bad: BadFlag) async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "original", bad.flag, bad.value, "--midi", "out.mid", "--events", "out.jsonl"],
                                 in: directory.path, timeout: 60)
        #expect(result.status == 64 && !result.signalled && !result.timedOut, "\(result)")
        #expect(result.stdout.isEmpty, "stdout: \(result.stdout)")
        #expect(result.stderr.contains(bad.flag), "stderr does not name \(bad.flag): \(result.stderr)")
        if let range = bad.range {
            #expect(result.stderr.contains(range), "stderr does not give the range \(range): \(result.stderr)")
        }
        // The message says which value was wrong, negative values included (not "Missing value").
        #expect(result.stderr.contains(bad.value) && !result.stderr.contains("Missing value"), "stderr: \(result.stderr)")
        #expect(!fileExists(directory.file("out.mid")), "MIDI file created by a rejected run")
        #expect(!fileExists(directory.file("out.jsonl")), "event log created by a rejected run")
        #expect(directory.entries().isEmpty, "files left behind: \(directory.entries())")
    }

    @Test("--flag=-1 form reaches clumsy's own range check", arguments: [("--gravity=-1", "0…100"), ("--duration=-5", "0.001…604800"), ("--speed=-2", "0.1…20")])
    func negativeWithEquals(argument: String, range: String) async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", argument, "--events", "out.jsonl"], in: directory.path, timeout: 10)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("out of range") && result.stderr.contains(range), "\(result.stderr)")
        #expect(directory.entries().isEmpty, "files left behind: \(directory.entries())")
    }

    @Test("Limits are inclusive: the smallest and largest accepted values run")
    func boundariesAccepted() async throws {
        let directory = try TemporaryDirectory()
        for arguments in [["--gravity", "0", "--speed", "0.1", "--duration", "0.001"],
                          ["--gravity", "100", "--speed", "20", "--duration", "0.5"]] {
            let result = try await CLI.run(["run", "original", "--quiet", "--events", "e.jsonl"] + arguments, in: directory.path)
            #expect(result.status == 0, "\(result)")
            #expect(fileExists(directory.file("e.jsonl")))
        }
    }

    @Test("--midi and --events naming the same file is rejected with 64 before anything is written")
    func sameOutputFile() async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "original", "--duration", "1", "--midi", "x", "--events", "x"], in: directory.path)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--midi") && result.stderr.contains("--events"), "\(result.stderr)")
        #expect(directory.entries().isEmpty, "files left behind: \(directory.entries())")
    }

    @Test("--midi x --events ./x (same file, spelled differently) must not silently lose the MIDI file")
    func sameOutputFileSpelledDifferently() async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "original", "--duration", "1", "--midi", "x", "--events", "./x"], in: directory.path)
        #expect(result.status == 64, "\(result)")
        #expect(directory.entries().isEmpty, "files left behind: \(directory.entries())")
    }
}
