// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

// The live chord control (`chord`, a degree 1…7): logged and replayed like the others, and sent
// by the LV2 plugin for a chord held on its MIDI input.

/// A hand-written live log of `preset` (seed 3, 120 bpm, `flags`) over `seconds`, with `controls`
/// (step, control line's fields after "step").
private func chordLog(_ preset: String, _ flags: [String], seconds: Int, _ controls: [(step: Int, fields: String)]) -> String {
    let arguments = ([preset, "--seed", "3", "--tempo", "120"] + flags).map { "\"\($0)\"" }.joined(separator: ",")
    var lines = [#"{"t":0.000000,"kind":"session","clumsy":"0.1.0","preset":"\#(preset)","seed":"3","timestep":0.004166666666666667,"arguments":[\#(arguments)]}"#]
    for control in controls {
        lines.append(#"{"t":\#(String(format: "%.6f", Double(control.step) / 240)),"kind":"control","step":\#(control.step),\#(control.fields)}"#)
    }
    lines.append(#"{"t":\#(seconds).000000,"kind":"end","step":\#(seconds * 240)}"#)
    return lines.joined(separator: "\n") + "\n"
}

@Suite("Live chord control", .serialized)
struct ChordControlTests {
    @Test("a chord control in a log: replay logs it and a chord event of that degree at its step; the notes change; replayed twice, the same MIDI")
    func replayed() async throws {
        let directory = try TemporaryDirectory(prefix: "chord-control")
        let log = try directory.write("live.jsonl", chordLog("original", [], seconds: 10, [(600, #""control":"chord","value":5"#)]))
        let plain = try directory.write("plain.jsonl", chordLog("original", [], seconds: 10, []))
        for (input, name) in [(log, "a"), (log, "b"), (plain, "plain")] {
            let run = try await CLI.run(["replay", input, "--midi", directory.file(name + ".mid"), "--events", directory.file(name + "-out.jsonl"), "--quiet"])
            #expect(run.status == 0, "\(run)")
        }
        let events = try String(contentsOfFile: directory.file("a-out.jsonl"), encoding: .utf8).split(separator: "\n")
        #expect(events.contains { $0.hasPrefix(#"{"t":2.500000,"kind":"control","step":600,"control":"chord","value":5"#) })
        let chord = events.first { $0.hasPrefix(#"{"t":2.500000,"kind":"chord","degree":5,"#) }
        #expect(chord?.contains(#""name":"G"#) == true, "no chord V (G…) at 2.5 s: \(chord ?? "none")")
        let a = try Data(contentsOf: URL(fileURLWithPath: directory.file("a.mid")))
        #expect(a == (try Data(contentsOf: URL(fileURLWithPath: directory.file("b.mid")))), "two replays differ")
        #expect(a != (try Data(contentsOf: URL(fileURLWithPath: directory.file("plain.mid")))), "the chord control changed no note")
    }

    @Test("a chord control out of range is refused naming what is accepted", arguments: ["0", "8", "2.5"])
    func refused(value: String) async throws {
        let directory = try TemporaryDirectory(prefix: "chord-control")
        let log = try directory.write("live.jsonl", chordLog("original", [], seconds: 2, [(120, #""control":"chord","value":\#(value)"#)]))
        let run = try await CLI.run(["replay", log, "--midi", directory.file("out.mid"), "--quiet"])
        #expect(run.status == 65, "\(run)")
        #expect(run.stderr.contains("expected a scale degree 1…7"), "\(run.stderr)")
    }

    /// The replayed notes of pulse in `tonic mode` with chord I at `step`, at frames.
    /// Without `step`, no chord control (the key alone).
    private func replayNotes(_ harness: PluginHarness, tonic: String, mode: String, step: Int?) async throws -> [PluginMessage] {
        let controls = step.map { [($0, #""control":"chord","value":1"#)] } ?? []
        let log = try harness.directory.write("held-\(step ?? 0).jsonl", chordLog("pulse", ["--key", tonic, "--mode", mode], seconds: 15, controls))
        let midi = harness.directory.file("held-\(step ?? 0).mid")
        let run = try await CLI.run(["replay", log, "--midi", midi, "--quiet"], timeout: 120)
        #expect(run.status == 0, "\(run)")
        return try fileNotes(midi, bpm: 120, rate: PluginHarness.rate, before: 15 * Int(PluginHarness.rate))
    }

    @Test("LV2 MIDI in: a held chord sets the key whose tonic chord it is and makes that chord the one playing: the notes from there are clumsy replay's of that key with chord I at the step the rebuilt session starts",
          arguments: [([62, 65, 69], "D", "minor"), ([62, 66, 69, 72], "D", "mixolydian"), ([57, 60, 64], "A", "minor")])
    func heldChord(notes: [Int], tonic: String, mode: String) async throws {
        let harness = try await PluginHarness()
        let change = PluginControlTests.change, gap = PluginControlTests.gap, window = PluginControlTests.window
        let chord = notes.enumerated().map { "\(change + $0.offset * 10):midi:144,\($0.element),100" }
        let (messages, _) = try await harness.run(seconds: 15, ["--preset", "\(try harness.presetIndex("pulse"))", "--seed", "3"] + chord)
        let played = noteOns(messages, from: change, gap: gap, frames: window)
        #expect(played.count > 20, "\(played.count) notes after the chord")
        // The rebuilt session takes over within the block's silent gap: chord I at one of its steps.
        let steps = (change * 240 / Int(PluginHarness.rate))...((change + gap) * 240 / Int(PluginHarness.rate) + 1)
        var candidates: [[PluginMessage]] = []
        for step in steps {
            candidates.append(noteOns(try await replayNotes(harness, tonic: tonic, mode: mode, step: step), from: change, gap: gap, frames: window))
        }
        #expect(candidates.contains(played), "\(firstDifference(played, candidates[0]))")
        let keyOnly = noteOns(try await replayNotes(harness, tonic: tonic, mode: mode, step: nil), from: change, gap: gap, frames: window)
        #expect(played != keyOnly, "chord I was playing already in \(tonic) \(mode): the test proves nothing of the chord")
    }
}
