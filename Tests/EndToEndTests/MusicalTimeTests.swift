// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import MIDIFile
import Testing

/// Musical time from the outside: the grid, the meter and tempo in the MIDI file, the
/// percussion track, accents, pans, and the refusal of bad values (issue 10).
@Suite("Musical time")
struct MusicalTimeTests {
    /// Runs `clumsy run <arguments> --midi --events` and reads both files back.
    static func session(_ arguments: [String]) async throws -> (MIDIFileContents, [LogEvent]) {
        let directory = try TemporaryDirectory()
        let midi = directory.file("s.mid")
        let events = directory.file("s.jsonl")
        let result = try await CLI.run(["run"] + arguments + ["--quiet", "--midi", midi, "--events", events], timeout: 120)
        try #require(result.status == 0 && !result.signalled, "\(result)")
        return (try MIDIFileReader.read(path: midi), try readEventLog(events))
    }

    static func allNoteOns(_ contents: MIDIFileContents) -> [(tick: UInt64, channel: UInt8, note: UInt8, velocity: UInt8)] {
        contents.tracks.flatMap(noteOns)
    }

    @Test("--quantize 1/16 at the preset's tempo: every note-on on a 240-tick line, none before its hit, none later than a step")
    func sixteenths() async throws {
        let (midi, log) = try await Self.session(["original", "--duration", "60", "--seed", "3", "--quantize", "1/16"])
        let ons = Self.allNoteOns(midi)
        try #require(ons.count > 300, "only \(ons.count) notes")
        #expect(midi.ticksPerQuarter == 960)
        let offGrid = ons.filter { $0.tick % 240 != 0 }
        #expect(offGrid.isEmpty, "\(offGrid.count) of \(ons.count) note-ons off the 1/16 grid, first at tick \(offGrid.first?.tick ?? 0)")
        let notes = log.filter { $0.note != nil }
        #expect(notes.count == ons.count, "\(notes.count) log notes, \(ons.count) MIDI note-ons")
        for event in notes {
            let hit = try #require(event.hit, "no hit time in \(event)")
            #expect(event.t >= hit && event.t - hit < 0.125 + 1e-6, "sounds at \(event.t) for a hit at \(hit)")
        }
        // Per track, ticks never go backwards (the recorder asserts it; the reader confirms it).
        for track in midi.tracks { #expect(zip(track, track.dropFirst()).allSatisfy { $0.tick <= $1.tick }) }
    }

    @Test("--tempo and --meter go into the MIDI file; the grid follows the tempo")
    func tempoAndMeter() async throws {
        let (midi, _) = try await Self.session(["original", "--duration", "20", "--tempo", "90", "--meter", "6/8", "--quantize", "1/8"])
        var tempos: [UInt32] = []
        var signatures: [(UInt8, UInt8)] = []
        for event in midi.tracks[0] {
            if case .tempo(let value) = event.message { tempos.append(value) }
            if case .timeSignature(let numerator, let power, _, _) = event.message { signatures.append((numerator, power)) }
        }
        #expect(tempos == [666_667])
        #expect(signatures.count == 1 && signatures[0] == (6, 3))
        #expect(Self.allNoteOns(midi).allSatisfy { $0.tick % 480 == 0 })
    }

    @Test("polska: a Drums track on channel 10 with the stomp on beats 1 and 3 of every 3/4 bar; beat 1 louder than the off-beats")
    func polska() async throws {
        let (midi, log) = try await Self.session(["polska", "--duration", "60", "--seed", "3"])
        try #require(midi.tracks.count == 5)
        #expect((1...4).map { midi.trackName(at: $0) } == ["Bass", "Keys", "Melody", "Drums"])
        let drums = noteOns(midi.tracks[4])
        #expect(drums.allSatisfy { $0.channel == 9 })
        let stomps = drums.filter { $0.note == 41 }
        let bar: UInt64 = 3 * 960
        #expect(stomps.allSatisfy { $0.tick % bar == 0 || $0.tick % bar == 1920 }, "a stomp off beats 1 and 3")
        // 60 s at 112 bpm in 3/4: bars of 180/112 s; beat 1 at 0 … 37 bars, beat 3 in 37 of them.
        let barSeconds = 180.0 / 112
        let expected = Int((60 / barSeconds).rounded(.down)) + 1 + Int(((60 - 2 * barSeconds / 3) / barSeconds).rounded(.down)) + 1
        #expect(stomps.count == expected, "\(stomps.count) stomps in 60 s, expected \(expected)")
        #expect(log.contains { $0.kind == "drum" && $0.voice == "drums" })
        // Accents: notes of the bass and keys on beat 1 against those on no beat line.
        let melodic = noteOns(midi.tracks[1]) + noteOns(midi.tracks[2])
        let down = melodic.filter { $0.tick % bar == 0 }.map { Double($0.velocity) }
        let off = melodic.filter { $0.tick % 960 != 0 }.map { Double($0.velocity) }
        try #require(down.count > 10 && off.count > 10)
        let mean = { (values: [Double]) in values.reduce(0, +) / Double(values.count) }
        #expect(mean(down) - mean(off) >= 14, "beat 1 \(mean(down)), off-beat \(mean(off))")
    }

    @Test("pulse: walls and floor play drums; swing delays every second sixteenth by 0.2 of a step")
    func pulse() async throws {
        let (midi, log) = try await Self.session(["pulse", "--duration", "30", "--seed", "3"])
        let sources = Set(log.filter { $0.kind == "drum" }.compactMap(\.source))
        #expect(sources.isSuperset(of: ["wall", "floor", "stomp"]), "drum sources: \(sources)")
        // Every note-on is on a straight sixteenth (even lines) or 48 ticks after an odd one.
        for on in Self.allNoteOns(midi) {
            let inStep = on.tick % 480
            #expect(inStep == 0 || inStep == 240 + 48, "note-on at tick \(on.tick)")
        }
    }

    @Test("Pans: default's keys play on one channel per pan zone (2–5), each with one CC10 and CC8; levels are the CC7 rows")
    func pans() async throws {
        let (midi, _) = try await Self.session(["original", "--duration", "20"])
        // Four keys, four zones from −0.8 to +0.8: CC10 13, 47, 81, 114, sent once per channel, never during notes.
        let zonePans = (1...4).map { controllerValues(midi.tracks[2], channel: UInt8($0), controller: 10) }
        #expect(zonePans == [[13], [47], [81], [114]], "keys CC10 per zone channel \(zonePans)")
        #expect((1...4).map { controllerValues(midi.tracks[2], channel: UInt8($0), controller: 8) } == zonePans, "CC8 balance = CC10")
        #expect(controllerValues(midi.tracks[1], channel: 0, controller: 10) == [64])
        #expect(controllerValues(midi.tracks[1], channel: 0, controller: 7) == [78])
        #expect((1...4).allSatisfy { controllerValues(midi.tracks[2], channel: UInt8($0), controller: 7) == [127] })
    }

    /// Pearson correlation of the left and right channels of a stereo WAV file.
    static func stereoCorrelation(_ audio: WAVFile) -> Double {
        var sl = 0.0, sr = 0.0, sll = 0.0, srr = 0.0, slr = 0.0
        let n = Double(audio.frameCount)
        for frame in 0..<audio.frameCount {
            let l = Double(audio.samples[2 * frame]), r = Double(audio.samples[2 * frame + 1])
            sl += l; sr += r; sll += l * l; srr += r * r; slr += l * r
        }
        return (slr - sl * sr / n) / ((sll - sl * sl / n) * (srr - sr * sr / n)).squareRoot()
    }

    @Test("Audio: keys panned by position spread the sound; everything centred is exactly mono, stereo samples folded by the mixer",
          .enabled(if: hasSmallSoundFont))
    func stereo() async throws {
        let presets = try TemporaryDirectory()
        let centre = try presets.write("centre.json", #"{"keys": {"pan": 0}, "bass": {"pan": 0}}"#)
        // FluidR3_GM's marimba and bass are stereo samples (left ≠ right even when centred): the mixer must fold them.
        let stereoFont = "/usr/share/sounds/sf2/FluidR3_GM.sf2"
        let font = FileManager.default.fileExists(atPath: stereoFont) ? stereoFont : smallSoundFont
        let out = try TemporaryDirectory()
        var correlations: [Double] = []
        for (preset, depth) in [(centre, "24"), (centre, "16"), ("default", "24")] {
            let wav = out.file("render.wav")
            let result = try await CLI.run(["run", preset, "--duration", "10", "--dry", "--quiet", "--soundfont", font, "--audio", wav,
                                      "--bit-depth", depth], timeout: 90)
            try #require(result.status == 0, "\(result)")
            let audio = try WAVFile(path: wav)
            try #require(audio.channels == 2 && audio.frameCount > 44_100)
            if preset == centre {
                let differing = (0..<audio.frameCount).filter { audio.values[2 * $0] != audio.values[2 * $0 + 1] }.count
                #expect(differing == 0, "centred, \(depth)-bit: \(differing) frames differ between left and right")
                #expect(audio.rms(frames: 0..<audio.frameCount) > 10, "centred render is silent")
            }
            correlations.append(Self.stereoCorrelation(audio))
        }
        #expect(correlations[2] < 0.9, "keys by position: L/R correlation \(correlations[2])")
    }

    struct BadValue: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var mentions: [String]
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let badFlags: [BadValue] = [
        BadValue(arguments: ["--meter", "9/8"], mentions: ["--meter", "4/4, 3/4, 6/8, 5/4, 7/8"]),
        BadValue(arguments: ["--quantize", "1/64"], mentions: ["--quantize", "off, 1/4, 1/8, 1/16, 1/32, 1/8t, 1/16t"]),
        BadValue(arguments: ["--strength", "1.5"], mentions: ["--strength", "0…1"]),
        BadValue(arguments: ["--swing", "0.8"], mentions: ["--swing", "0…0.75"]),
        BadValue(arguments: ["--swing", "nan"], mentions: ["--swing"]),
        BadValue(arguments: ["--tempo", "0"], mentions: ["--tempo", "20…400"]),
        BadValue(arguments: ["--chord-change", "verse"], mentions: ["--chord-change", "hit, beat, bar"]),
    ]

    @Test("Bad musical-time flags exit 64 before anything runs, naming the flag and what is accepted", arguments: badFlags)
    func badFlag(_ bad: BadValue) async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "original"] + bad.arguments + ["--midi", "o.mid"], in: directory.path, timeout: 10)
        #expect(result.status == 64, "\(result)")
        for text in bad.mentions { #expect(result.stderr.contains(text), "stderr lacks \(text): \(result.stderr)") }
        #expect(directory.entries().isEmpty, "files left behind: \(directory.entries())")
    }

    static let badFields: [BadValue] = [
        BadValue(arguments: [#"{"meter": "9/8"}"#], mentions: ["meter", "4/4, 3/4, 6/8, 5/4, 7/8"]),
        BadValue(arguments: [#"{"time": {"quantize": "1/5"}}"#], mentions: ["time.quantize", "1/16t"]),
        BadValue(arguments: [#"{"time": {"strength": 2}}"#], mentions: ["time.strength", "0…1"]),
        BadValue(arguments: [#"{"time": {"swing": -0.1}}"#], mentions: ["time.swing", "0…0.75"]),
        BadValue(arguments: [#"{"percussion": {"walls": "cowbel"}}"#], mentions: ["percussion.walls", "cowbell"]),
        BadValue(arguments: [#"{"keys": {"pan": 1.5}}"#], mentions: ["keys.pan", "position"]),
        BadValue(arguments: [#"{"keys": {"pan": "left"}}"#], mentions: ["keys.pan", "position"]),
        BadValue(arguments: [#"{"bass": {"pan": -2}}"#], mentions: ["bass.pan", "-1…1"]),
        BadValue(arguments: [#"{"meter": "3/4", "percussion": {"stomp": [1, 4]}}"#], mentions: ["percussion.stomp[1]", "1…3"]),
    ]

    @Test("Bad musical-time preset fields exit 65 naming the field path and what is accepted", arguments: badFields)
    func badField(_ bad: BadValue) async throws {
        let presets = try TemporaryDirectory()
        let path = try presets.write("bad.json", bad.arguments[0])
        let out = try TemporaryDirectory()
        let result = try await CLI.run(["run", path, "--duration", "1", "--midi", "o.mid"], in: out.path, timeout: 10)
        #expect(result.status == 65, "\(result)")
        for text in bad.mentions { #expect(result.stderr.contains(text), "stderr lacks \(text): \(result.stderr)") }
        #expect(out.entries().isEmpty, "files left behind: \(out.entries())")
    }
}
