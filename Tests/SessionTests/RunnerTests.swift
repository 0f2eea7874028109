// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import Foundation
import TestSupport
import Testing
import Text
@testable import Session

/// The outputs table and the runner, in process: what a request may combine, and what a run writes.
@Suite struct RunnerTests {
    /// The usage error `request` gets from the table, or nil.
    private func refusal(_ change: (inout RunRequest) -> Void) -> SessionError? {
        var request = RunRequest(preset: "default", duration: 5)
        change(&request)
        do {
            try SessionOutputs.validate(request)
            return nil
        } catch {
            return error
        }
    }

    @Test("Each flag belongs to one output of the table")
    func flagsAreOneRowEach() {
        let flags = SessionOutputs.flags
        #expect(Set(flags).count == flags.count, "\(flags)")
        for flag in ["--midi", "--events", "--audio", "--video", "--stems", "--score", "--osc-out", "--osc-in", "--midi-in", "--transport", "--link"] {
            #expect(flags.contains(flag), "\(flag)")
        }
    }

    @Test("The table refuses what cannot be combined, with 64 naming the flags")
    func refusals() {
        #expect(refusal { _ in } == nil)
        let cases: [(String, (inout RunRequest) -> Void)] = [
            ("--osc-out only applies with --live", { $0.oscOut = "127.0.0.1:9000" }),
            ("two masters", { $0.isLive = true; $0.transport = "jack"; $0.clockIn = "jack" }),
            ("--midi-in usb is not accepted; expected jack or alsa", { $0.isLive = true; $0.midiIn = "usb" }),
            ("--transport only applies with --live", { $0.transport = "jack" }),
            (".ly", { $0.files["--score"] = "score.pdf" }),
        ]
        for (words, change) in cases {
            let error = refusal(change)
            #expect(error?.exitStatus == 64 && error?.description.contains(words) == true, "\(words): \(String(describing: error))")
        }
    }

    @Test("A run writes the MIDI file and event log it was asked for, and its summary says how long it ran")
    func run() throws {
        let directory = try TemporaryDirectory(prefix: "clumsy-runner-tests")
        let request = RunRequest(preset: "default", duration: 6, midiPath: directory.file("s.mid"), eventsPath: directory.file("s.jsonl"), isQuiet: true)
        let summary = try SessionRunner.run(request, stop: nil)
        #expect(summary.duration == 6 && summary.keyNotes > 0)
        let midi = try Data(contentsOf: URL(fileURLWithPath: directory.file("s.mid")))
        #expect(midi.starts(with: Array("MThd".utf8)))
        let log = try String(contentsOfFile: directory.file("s.jsonl"), encoding: .utf8)
        #expect(log.split(separator: "\n").count > summary.keyNotes)
    }

    @Test("A run whose output names its own preset file is refused before anything is written, and the preset is kept")
    func outputOverItsPreset() throws {
        let directory = try TemporaryDirectory(prefix: "clumsy-runner-tests")
        let preset = directory.file("mine.json")
        try Data(#"{"seed": 4}"#.utf8).write(to: URL(fileURLWithPath: preset))
        let request = RunRequest(preset: preset, duration: 6, midiPath: preset, isQuiet: true)
        do {
            _ = try SessionRunner.run(request, stop: nil)
            Issue.record("the preset was overwritten")
        } catch {
            #expect(error.exitStatus == 64 && error.description.contains("would destroy it"), "\(error)")
        }
        #expect(try String(contentsOfFile: preset, encoding: .utf8) == #"{"seed": 4}"#)
    }
}
