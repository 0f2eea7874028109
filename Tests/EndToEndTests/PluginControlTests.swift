// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

// The LV2 plugin's control ports and MIDI in, in the headless host (Tools/lv2host.c): what a
// port or a held chord changes is what `clumsy run` with the same flag plays, at the same frames.

@Suite("LV2 plugin: control ports and MIDI in", .serialized)
struct PluginControlTests {
    /// The frame of a mid-run change (5 s in) and how long after it the notes are compared.
    static let change = 240_000, window = 480_000
    /// The block of the change is silent while the worker builds the session (see PluginTests).
    static let gap = 512

    /// `clumsy run PRESET --seed SEED --tempo 120 FLAGS`'s notes before `seconds`, at frames.
    private func runNotes(_ harness: PluginHarness, _ preset: String, seed: Int, seconds: Int, _ flags: [String]) async throws -> [PluginMessage] {
        let midi = harness.directory.file("run-\(flags.joined(separator: "_").replacingOccurrences(of: "/", with: "-")).mid")
        let run = try await CLI.run(["run", preset, "--seed", "\(seed)", "--tempo", "120", "--duration", "\(seconds)", "--midi", midi, "--quiet"] + flags,
                              timeout: 120)
        #expect(run.status == 0, "\(run)")
        return try fileNotes(midi, bpm: 120, rate: PluginHarness.rate, before: seconds * Int(PluginHarness.rate))
    }

    @Test("key, mode, quantize, swing and balls set from the start: the notes of clumsy run with those flags, at the same frames")
    func portsFromTheStart() async throws {
        let harness = try await PluginHarness()
        let expected = try await runNotes(harness, "default", seed: 7, seconds: 30,
                                    ["--key", "D", "--mode", "dorian", "--quantize", "1/8", "--swing", "0.3", "--set", "piano.count=8"])
        let (messages, _) = try await harness.run(seconds: 30, ["--seed", "7", "--key", "2", "--mode", "1", "--quantize", "2", "--swing", "0.3",
                                                          "--balls", "8"])
        let notes = messages.filter { $0.isNoteOn || $0.isNoteOff }.sorted()
        let plain = try await harness.run(seconds: 30, ["--seed", "7"]).messages.filter { $0.isNoteOn || $0.isNoteOff }.sorted()
        #expect(expected.count > 100, "only \(expected.count) notes")
        #expect(notes != plain, "the ports changed nothing")
        #expect(notes == expected, "\(firstDifference(notes, expected))")
    }

    @Test("a port changed 5 s in rebuilds the session there: from the next block on, the notes of clumsy run with that flag",
          arguments: [("key=7", ["--key", "G"], []), ("mode=5", ["--mode", "minor"], []), ("quantize=2", ["--quantize", "1/8"], []),
                      ("swing=0.5", ["--swing", "0.5"], []), ("balls=9", ["--set", "piano.count=9"], []),
                      ("gravity=-1", [], ["--gravity", "3"])])
    func portChangeRebuilds(port: String, flags: [String], from: [String]) async throws {
        let harness = try await PluginHarness()
        let (messages, _) = try await harness.run(seconds: 15, ["--preset", "\(try harness.presetIndex("pulse"))", "--seed", "3"] + from
                                                          + ["\(Self.change):port:\(port)"])
        let before = try await runNotes(harness, "pulse", seed: 3, seconds: 15, from)
        let after = try await runNotes(harness, "pulse", seed: 3, seconds: 15, flags)
        let played = noteOns(messages, from: Self.change, gap: Self.gap, frames: Self.window)
        let changed = noteOns(after, from: Self.change, gap: Self.gap, frames: Self.window)
        let unchanged = noteOns(before, from: Self.change, gap: Self.gap, frames: Self.window)
        #expect(played.count > 20, "\(played.count) notes after the change")
        #expect(changed != unchanged, "\(flags) plays the same notes as without it: the test proves nothing")
        #expect(played == changed, "after \(port): \(firstDifference(played, changed))")
        let opening = noteOns(messages, from: 0, frames: Self.change - 256)
        #expect(opening == noteOns(before, from: 0, frames: Self.change - 256), "before the change")
    }

    @Test("gravity and speed changed 5 s in take effect at the next step, with no rebuild: the same notes before, others after, every time",
          arguments: ["gravity=2", "speed=4"])
    func livePortChange(port: String) async throws {
        let harness = try await PluginHarness()
        let arguments = ["--seed", "7", "\(Self.change):port:\(port)"]
        let (changed, _) = try await harness.run(seconds: 15, arguments)
        let (again, _) = try await harness.run(seconds: 15, arguments)
        let (plain, _) = try await harness.run(seconds: 15, ["--seed", "7"])
        #expect(changed == again, "\(firstDifference(changed, again))")
        // The block of the change plays on (a rebuild would end what sounds and be silent).
        let block = Self.change / 256 * 256
        #expect(changed.filter { $0.frame < block + 256 } == plain.filter { $0.frame < block + 256 }, "notes before the change moved")
        #expect(noteOns(changed, from: Self.change, frames: Self.window) != noteOns(plain, from: Self.change, frames: Self.window),
                "\(port) changed nothing")
    }

    @Test("the channel ports move the bass's and the keys' notes, note-offs on their note-on's channel, also when moved mid-note")
    func channelPorts() async throws {
        let harness = try await PluginHarness()
        let plain = try await harness.run(seconds: 10, ["--seed", "7"]).messages
        let moved = try await harness.run(seconds: 10, ["--seed", "7", "--bass_channel", "5", "--keys_channel", "9"]).messages
        // default: the bass on channel 1 (0), the keys spread by position over channels 2–5 (1…4).
        let expected = plain.map { message in
            var bytes = message.bytes
            let channel = bytes[0] & 0x0F
            if channel == 0 { bytes[0] = bytes[0] & 0xF0 | 4 } else if (1...4).contains(channel) { bytes[0] = bytes[0] & 0xF0 | 8 }
            return PluginMessage(frame: message.frame, bytes: bytes)
        }
        #expect(plain.contains { $0.isNoteOn && $0.bytes[0] & 0x0F == 0 } && plain.contains { $0.isNoteOn && $0.bytes[0] & 0x0F == 2 })
        #expect(moved == expected, "\(firstDifference(moved, expected))")

        // Moved while notes sound: every note-on's note-off comes on its channel.
        let (switched, _) = try await harness.run(seconds: 10, ["--seed", "7", "100000:port:keys_channel=12", "300000:port:keys_channel=0"])
        var open: [Int: Int] = [:]   // channel × 128 + note → note-ons not yet ended
        for message in switched where message.isNoteOn || message.isNoteOff {
            open[message.pitch, default: 0] += message.isNoteOn ? 1 : -1
            #expect(open[message.pitch]! >= 0, "a note-off without its note-on: \(message)")
        }
        #expect(switched.contains { $0.isNoteOn && $0.bytes[0] & 0x0F == 11 }, "no note on channel 12 while the port said so")
        #expect(switched.filter(\.isNoteOn).count == plain.filter(\.isNoteOn).count, "moving channels changed the notes")
    }

    // A held chord on MIDI in: ChordControlTests (the key and the chord it sets).

    @Test("MIDI in: a single note drops a ball: the same notes up to it, others after it, the same ones every time")
    func noteDropsABall() async throws {
        let harness = try await PluginHarness()
        let arguments = ["--seed", "7", "\(Self.change):midi:144,60,100", "\(Self.change + 4800):midi:128,60,0"]
        let (dropped, _) = try await harness.run(seconds: 15, arguments)
        let (again, _) = try await harness.run(seconds: 15, arguments)
        let (plain, _) = try await harness.run(seconds: 15, ["--seed", "7"])
        #expect(dropped == again, "two runs with the same note: \(firstDifference(dropped, again))")
        #expect(dropped.filter { $0.frame < Self.change } == plain.filter { $0.frame < Self.change }, "notes before the drop changed")
        #expect(noteOns(dropped, from: Self.change, frames: Self.window) != noteOns(plain, from: Self.change, frames: Self.window),
                "the note dropped nothing")
    }

    @Test("a host without a worker: a jump to bar 33 and a port change rebuild inside run(), the same notes as with one")
    func withoutWorker() async throws {
        let harness = try await PluginHarness()
        let arguments = ["--preset", "\(try harness.presetIndex("pulse"))", "--seed", "3", "240000:bar=32,beat=0", "720000:port:key=7"]
        let (with, _) = try await harness.run(seconds: 20, arguments)
        let (without, _) = try await harness.run(seconds: 20, arguments + ["--no-worker"])
        #expect(noteOns(without, from: 240_000, gap: Self.gap, frames: Self.window).count > 20, "silent after the jump")
        #expect(without == with, "\(firstDifference(without, with))")
    }
}
