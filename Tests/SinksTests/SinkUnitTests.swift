// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import Foundation
import Sound
import TestSupport
import Testing
@testable import Engine
@testable import Sinks

/// The sinks' own rules, in process: sizes, clocks, the disk a render needs, the outputs a
/// command may write, and the score a session becomes.
@Suite("The sinks' rules")
struct SinkUnitTests {
    @Test("A picture size is WIDTHxHEIGHT within 64x64…3840x2160; the refusal names the flag")
    func pictureSizes() throws {
        #expect(try PictureSize(parsing: "1280x720") == PictureSize(width: 1280, height: 720))
        #expect(try PictureSize(parsing: "64×2160") == PictureSize(width: 64, height: 2160))
        for text in ["63x64", "3840x2161", "1280", "x720", "1280x720x1", "wide", "-64x64"] {
            #expect(throws: SessionError.self, "\(text)") { try PictureSize(parsing: text, flag: "--video-size") }
            do {
                _ = try PictureSize(parsing: text, flag: "--video-size")
            } catch {
                #expect(error.exitStatus == 64 && error.description.contains("--video-size \(text)"), "\(error)")
            }
        }
    }

    @Test("The progress clock is m:ss, h:mm:ss from an hour, and 0:00 for what is not a time")
    func progressClock() {
        #expect(ProgressLine.clock(0) == "0:00")
        #expect(ProgressLine.clock(59.6) == "1:00")
        #expect(ProgressLine.clock(605) == "10:05")
        #expect(ProgressLine.clock(3661) == "1:01:01")
        #expect(ProgressLine.clock(.nan) == "0:00" && ProgressLine.clock(-5) == "0:00" && ProgressLine.clock(.infinity) == "0:00")
    }

    @Test("A render's lower bound: WAV exactly, FLAC an eighth, Ogg a sixty-fourth of the PCM bytes")
    func audioBudget() {
        let pcm = Int64(44_100 * 4 + 44)
        #expect(AudioBudget.minimumBytes(seconds: 1, rate: 44_100, format: .wav) == pcm)
        #expect(AudioBudget.minimumBytes(seconds: 1, rate: 44_100, format: .flac) == pcm / 8)
        #expect(AudioBudget.minimumBytes(seconds: 1, rate: 44_100, format: .ogg) == pcm / 64)
        #expect(AudioBudget.minimumBytes(seconds: 1, rate: 44_100, format: .wav, bytesPerSample: 3) == Int64(44_100 * 6 + 44))
        // A year of audio is past WAV's 4 GiB: refused before anything is written, naming the way out.
        #expect(throws: SessionError.self) { try AudioBudget.check(path: "/dev/null.wav", seconds: 3e7, rate: 44_100) }
    }

    @Test("No output may overwrite an input, or another output; standard output takes one, never a terminal")
    func outputsAgainstInputs() throws {
        let directory = try TemporaryDirectory(prefix: "clumsy-sinks-tests")
        let preset = directory.file("mine.json"), midi = directory.file("x.mid")
        try Data("{}".utf8).write(to: URL(fileURLWithPath: preset))
        do {
            try OutputCheck.verify(outputs: [("--midi", preset)], inputs: [("the preset", preset)])
            Issue.record("an output over the preset was accepted")
        } catch {
            #expect(error.exitStatus == 64 && error.description.contains("would destroy it"), "\(error)")
        }
        do {
            try OutputCheck.verify(outputs: [("--midi", midi), ("--events", directory.path + "/./x.mid")], inputs: [])
            Issue.record("two outputs on one file were accepted")
        } catch {
            #expect(error.description.contains("name the same file"), "\(error)")
        }
        try OutputCheck.verify(outputs: [("--midi", midi), ("--events", "/dev/null"), ("--audio", "/dev/null")], inputs: [("the preset", preset)])
        #expect(throws: SessionError.self) { try OutputCheck.checkStandardOutput([("--midi", "-"), ("--events", "-")], isTerminal: false) }
        #expect(throws: SessionError.self) { try OutputCheck.checkStandardOutput([("--midi", "-")], isTerminal: true) }
        try OutputCheck.checkStandardOutput([("--midi", "-")], isTerminal: false)
    }

    @Test("A session becomes a LilyPond score in its key, meter and tempo, with a chord line")
    func score() throws {
        let directory = try TemporaryDirectory(prefix: "clumsy-sinks-tests")
        let path = directory.file("s.ly")
        let plan = SessionPlan(configuration: try Configuration(preset: try bundled("borrowed-chords"), duration: 12))
        try Simulator(plan: plan).run(into: [try ScoreWriter(path: path, plan: plan)])
        let score = try String(contentsOfFile: path, encoding: .utf8)
        #expect(score.contains("\\key d \\major"), "\(score.prefix(400))")
        #expect(score.contains("\\time \(plan.clock.meter.beats)/\(plan.clock.meter.unit)"))
        #expect(score.contains("\\tempo 4 = \(Int(plan.clock.tempo.rounded()))"))
        #expect(score.contains("\\chordmode") && score.contains("\\clef bass"))
    }
}
