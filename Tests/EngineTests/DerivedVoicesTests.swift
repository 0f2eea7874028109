// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Performance
import TestSupport
import Testing
import Theory
@testable import Engine

/// The preset's `voices` list: rows of the voices table after the second voice.
@Suite struct DerivedVoicesTests {
    static let eight = (1...8).map { #"{"name": "v\#($0)", "semitones": \#($0), "follows": "\#($0 % 2 == 0 ? "bass" : "keys")"}"# }

    @Test("the most voices a session can hold (five keys' zones, the second voice, eight derived, the drums) each get a MIDI channel of their own")
    func channels() throws {
        let preset = try decode(#"{"keys": {"tones": [1, 2, 3, 4, 5]}, "bass": {"chords": {"1": "ninth"}}, "second": {"interval": 3}, "percussion": {"metronome": true}, "voices": [\#(Self.eight.joined(separator: ","))]}"#)
        let plan = SessionPlan(configuration: try Configuration(preset: preset, duration: 5))
        let rows = plan.voices.voices
        #expect(rows.map(\.name) == ["Bass", "Keys", "Second"] + (1...8).map { "V\($0)" } + ["Drums"])
        #expect(rows.map(\.logName) == ["bass", "keys", "second"] + (1...8).map { "v\($0)" } + ["drums"])
        let all = rows.flatMap { $0.channels.map(\.channel) }
        #expect(all.count == 16 && Set(all).count == 16, "channels: \(all)")
        #expect(rows.last?.channels.map(\.channel) == [9])
        // Each follows the voice it names, with that voice's note length, by its own rule.
        for (index, row) in rows.enumerated() where index >= 3 && index < 11 {
            let n = index - 2
            let derivation = try #require(row.derived)
            #expect(derivation.from == (n % 2 == 0 ? .bass : .keys) && derivation.rule == .semitones(n))
            #expect(row.noteLength == rows[derivation.from.rawValue].noteLength && derivation.notes[60] == 60 + n)
        }
    }

    @Test("at a live key change every derived voice's rule is worked out again in the new key")
    func keyChange() throws {
        let preset = try decode(#"{"second": {"interval": -6}, "voices": [{"name": "third", "interval": 3}, {"name": "fifth", "semitones": 7}]}"#)
        let plan = SessionPlan(configuration: try Configuration(preset: preset, duration: 5))
        let aFlat = try #require(Key(parsing: "Ab major"))
        guard case .success(let change) = plan.keyChange(to: aFlat) else { Issue.record("Ab major refused"); return }
        #expect(change.derived.count == 3)
        #expect(change.derived.map(\.voice) == change.derived.map(\.voice).sorted(), "in voice order, as they change")
        for id in plan.voices.ids where plan.voices[id].derived != nil {
            let rule = try #require(plan.voices[id].derived?.rule)
            #expect(change.derivation(of: id)?.notes == rule.notes(in: aFlat) && change.derivation(of: id)?.rule == rule)
        }
        // In A♭ major a third above C is E♭ and above A♭ is C; D, outside the scale, moves a minor third.
        let third = try #require(change.derivation(of: VoiceID(rawValue: 3)))
        #expect(third.notes[60] == 63 && third.notes[68] == 72 && third.notes[62] == 65)
        #expect(plan.voices[VoiceID(rawValue: 3)].derived?.notes[60] == 64, "in C major, E")
    }
}
