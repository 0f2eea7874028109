// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import Foundation
import Performance
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
    func audioBudget() throws {
        let pcm = Int64(44_100 * 4 + 44)
        #expect(AudioBudget.minimumBytes(seconds: 1, rate: 44_100, format: .wav) == pcm)
        #expect(AudioBudget.minimumBytes(seconds: 1, rate: 44_100, format: .flac) == pcm / 8)
        #expect(AudioBudget.minimumBytes(seconds: 1, rate: 44_100, format: .ogg) == pcm / 64)
        #expect(AudioBudget.minimumBytes(seconds: 1, rate: 44_100, format: .wav, bytesPerSample: 3) == Int64(44_100 * 6 + 44))
        // Seven hours of WAV are past its 4 GiB (and fit the disk of any machine that runs this):
        // refused with 73 before anything is written, naming the way out; the same as FLAC is fine.
        let directory = try TemporaryDirectory(prefix: "clumsy-sinks-tests")
        do {
            try AudioBudget.check(path: directory.file("long.wav"), seconds: 7 * 3600, rate: 48_000)
            Issue.record("a WAV past 4 GiB was accepted")
        } catch {
            #expect(error.exitStatus == 73 && error.description.contains("past the format's 4 GiB limit"), "\(error)")
        }
        try AudioBudget.check(path: directory.file("short.wav"), seconds: 60, rate: 48_000)
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
        // What the session played: its chords named beside the chord line, and notes on the staves.
        let chords = try simulate(try bundled("borrowed-chords"), duration: 12).events.compactMap { event -> ChordEvent? in
            if case .chord(let chord) = event { return chord } else { return nil }
        }
        // (A chord that falls in the last sixteenth, past the last one written, has no slot.)
        let named = chords.filter { score.contains("% \($0.name) (\($0.numeral))") }
        #expect(chords.count > 1 && named.first == chords.first && named.count >= chords.count - 1, "\(named.count) of \(chords.count)")
        // A note's last word: its name (in the key's spelling), octave marks, a duration, maybe a tie.
        let note = try Regex("[a-g](is|es)*[',]*>?(16|8|4|2|1)\\.?~?")
        let notes = score.split(separator: "\n").filter { !$0.contains("%") }.flatMap { $0.split(separator: " ") }
            .filter { $0.wholeMatch(of: note) != nil }
        #expect(notes.count > 20, "\(notes.count) notes or chords on the staves")
        #expect(score.contains("\\key d \\major"), "\(score.prefix(400))")
        #expect(score.contains("\\time \(plan.clock.meter.beats)/\(plan.clock.meter.unit)"))
        #expect(score.contains("\\tempo 4 = \(Int(plan.clock.tempo.rounded()))"))
        #expect(score.contains("\\chordmode") && score.contains("\\clef bass"))
    }
}
