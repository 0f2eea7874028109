// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import Foundation
import TestSupport
import Testing
@testable import EventLog

/// Reading an event log line by line, in process: `roll`, `replay` and `recover` read through it.
@Suite("Event log lines")
struct EventLogLinesTests {
    static func lines(_ path: String) throws -> (lines: [String], cut: Bool) {
        let reader = try EventLogLines(path: path)
        var result: [String] = []
        while let line = try reader.next() { result.append(String(decoding: line, as: UTF8.self)) }
        return (result, reader.isCut)
    }

    @Test("Lines come back without their newlines, in order, across the reader's 64 KiB chunks; a last line without a newline is cut")
    func lines() throws {
        let directory = try TemporaryDirectory()
        // 3,000 lines of 100 bytes: the reads end inside lines many times.
        let written = (0..<3_000).map { "{\"t\":\($0)," + String(repeating: "x", count: 88 - String($0).count) + "}" }
        let whole = try directory.write("whole.jsonl", written.joined(separator: "\n") + "\n")
        let read = try Self.lines(whole)
        #expect(read.lines == written && !read.cut)
        let cut = try directory.write("cut.jsonl", written.prefix(10).joined(separator: "\n"))
        let partly = try Self.lines(cut)
        #expect(partly.lines == Array(written.prefix(10)) && partly.cut)
        #expect(try Self.lines(try directory.write("empty.jsonl", "")).lines.isEmpty)
        // An empty line is a line.
        #expect(try Self.lines(try directory.write("blank.jsonl", "a\n\nb\n")).lines == ["a", "", "b"])
    }

    @Test("A line over 64 KiB is refused (65) naming the file and its line, with or without a newline after it")
    func tooLong() throws {
        let directory = try TemporaryDirectory()
        let long = String(repeating: "y", count: EventLogLines.maximumLine + 1)
        for (name, text) in [("newline.jsonl", "ok\n" + long + "\n"), ("none.jsonl", "ok\n" + long + long)] {
            let path = try directory.write(name, text)
            let reader = try EventLogLines(path: path)
            #expect(try reader.next().map { Array($0) } == Array("ok".utf8))
            #expect {
                _ = try reader.next()
            } throws: { error in
                guard let error = error as? SessionError else { return false }
                return error.exitStatus == 65 && error.description.contains(name) && error.description.contains("line 2")
            }
        }
        // Exactly the bound is still a line.
        let path = try directory.write("bound.jsonl", String(repeating: "z", count: EventLogLines.maximumLine) + "\n")
        #expect(try Self.lines(path).lines.first?.count == EventLogLines.maximumLine)
    }

    @Test("A missing file, a directory and a FIFO are refused (66) without waiting")
    func notARegularFile() throws {
        let directory = try TemporaryDirectory()
        let fifo = directory.file("fifo")
        try #require(mkfifo(fifo, 0o600) == 0)
        for path in [directory.file("missing.jsonl"), directory.path, fifo] {
            #expect {
                _ = try EventLogLines(path: path)
            } throws: { error in
                (error as? SessionError)?.exitStatus == 66
            }
        }
    }
}

/// What `clumsy recover` says, and the step a log's last event needs.
@Suite("Log recovery")
struct LogRecoveryTests {
    @Test("An event at t needs the step that delivers it: steps to t rounded up, one more when t is on a step")
    func stepsReaching() {
        let timestep = 1.0 / 240
        #expect(LogRecovery.steps(reaching: 0, timestep: timestep) == 1)
        #expect(LogRecovery.steps(reaching: 1, timestep: timestep) == 241)
        #expect(LogRecovery.steps(reaching: 1.001, timestep: timestep) == 241)
        #expect(LogRecovery.steps(reaching: 0.5 * timestep, timestep: timestep) == 1)
    }

    @Test("The sentence names the events, the time and whether the log was complete or cut")
    func sentence() {
        let complete = LogRecovery(events: 1, lastTime: 2.5, endStep: 600, isComplete: true, hadCutLine: false)
        #expect(complete.description(path: "set.jsonl", timestep: 1.0 / 240)
                == "set.jsonl: 1 event up to 2.500 s and the end line at step 600: the log is complete")
        let killed = LogRecovery(events: 12, lastTime: 3, endStep: 721, isComplete: false, hadCutLine: true)
        let text = killed.description(path: "set.jsonl", timestep: 1.0 / 240)
        #expect(text.contains("12 events") && text.contains("no end line") && text.contains("721 steps, 3.004 s") && text.hasSuffix("its last line was cut and is left out"))
    }
}
