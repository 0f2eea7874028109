// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import MIDIWire
import Testing
import Theory

/// The MIDI-in rules the plugin and `clumsy run --midi-in` share (`HeldNotes`).
@Suite("Held notes: what MIDI in asks for")
struct HeldNotesTests {
    /// The actions of pressing `notes` one after another (note-on, velocity 100, channel 3).
    func press(_ notes: [UInt8], into held: inout HeldNotes) -> [HeldNotes.Action?] {
        notes.map { held.receive(MIDIBytes(status: 0x92, data1: $0, data2: 100, count: 3)) }
    }

    @Test("a chord's key: its lowest note the tonic, the mode from its intervals", arguments: [
        ([60, 64, 67], 0, "major"), ([50, 54, 57, 60], 2, "mixolydian"), ([57, 60, 64], 9, "minor"),
        ([59, 62, 65], 11, "locrian"), ([57, 60, 64, 68], 9, "harmonicMinor"), ([62, 69, 77], 2, "minor"),
        ([55, 67, 71, 74], 7, "major"), ([60, 62, 67], 0, "major"),
    ] as [([UInt8], Int, String)])
    func chordKey(notes: [UInt8], tonic: Int, scale: String) {
        var held = HeldNotes()
        let actions = press(notes, into: &held)
        #expect(actions.first == .drop, "the first note alone drops a ball")
        guard case .key(let keyTonic, let keyScale)? = actions.last else {
            Issue.record("no key from \(notes): \(actions)")
            return
        }
        #expect(keyTonic == PitchClass(tonic) && keyScale.name == scale, "\(notes): \(keyTonic) \(keyScale.name)")
    }

    @Test func offsRepeatsAndOtherMessages() {
        var held = HeldNotes()
        #expect(held.receive(MIDIBytes(status: 0x90, data1: 60, data2: 90, count: 3)) == .drop)
        #expect(held.receive(MIDIBytes(status: 0x90, data1: 60, data2: 90, count: 3)) == nil, "a repeated note-on is not a second note")
        #expect(held.receive(MIDIBytes(status: 0x90, data1: 64, data2: 90, count: 3)) == nil, "two notes ask for nothing")
        #expect(held.receive(MIDIBytes(status: 0xB0, data1: 64, data2: 127, count: 3)) == nil, "a controller is not a note")
        #expect(held.receive(MIDIBytes(status: 0x80, data1: 64, data2: 0, count: 3)) == nil)
        #expect(held.receive(MIDIBytes(status: 0x90, data1: 60, data2: 0, count: 3)) == nil, "velocity 0 is a note-off")
        #expect(held.count == 0)
        #expect(held.receive(MIDIBytes(status: 0x9F, data1: 48, data2: 1, count: 3)) == .drop, "alone again: a drop, on any channel")
        held.releaseAll()
        #expect(held.count == 0 && held.key() == nil)
    }
}
