// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import MIDIWire
import Theory

/// The rules of MIDI in, shared by the LV2 plugin and `clumsy run --midi-in`: a single note
/// held drops a piano ball; a chord of three or more held notes sets the key whose tonic chord
/// it is (its lowest note the tonic) and makes that chord play.
///
/// The mode comes from the chord's intervals over its lowest note, in any octave: a major third
/// makes major, mixolydian with a minor seventh; a minor third makes minor, locrian with a
/// diminished fifth (and no perfect fifth), harmonic minor with a major seventh. It keeps its
/// state in place (no allocation after `init`), as the plugin's audio thread needs.
public struct HeldNotes: Sendable {
    /// What a note-on asks for.
    public enum Action: Sendable, Equatable {
        /// A single note: drop the piano ball longest without a key hit.
        case drop
        /// A held chord: this key, with its tonic chord playing.
        case key(tonic: PitchClass, scale: Scale)
    }

    private var held = [Bool](repeating: false, count: 128)
    /// Notes held now.
    public private(set) var count = 0

    /// No note held.
    public init() {}

    /// Takes one channel message (any channel); returns what a note-on asks for, nil for
    /// anything else (note-offs, repeated note-ons, other messages, a second note).
    public mutating func receive(_ message: MIDIBytes) -> Action? {
        let kind = message.status & 0xF0
        let note = Int(message.data1 & 127)
        guard message.count == 3, kind == 0x90 || kind == 0x80 else { return nil }
        let down = kind == 0x90 && message.data2 > 0
        guard held[note] != down else { return nil }
        held[note] = down
        count += down ? 1 : -1
        guard down else { return nil }
        if count == 1 { return .drop }
        guard count >= 3, let key = key() else { return nil }
        return .key(tonic: key.tonic, scale: key.scale)
    }

    /// Forgets every held note, in place (the plugin's `deactivate`, on its audio thread).
    public mutating func releaseAll() {
        for note in held.indices { held[note] = false }
        count = 0
    }

    /// The key of the notes held, nil when none is.
    public func key() -> (tonic: PitchClass, scale: Scale)? {
        guard let lowest = held.firstIndex(of: true) else { return nil }
        // A held note `interval` semitones above the lowest, in any octave.
        func has(_ interval: Int) -> Bool {
            var note = lowest + interval
            while note < held.count {
                if held[note] { return true }
                note += 12
            }
            return false
        }
        let scale: Scale
        if has(4) {
            scale = has(10) ? .mixolydian : .major
        } else if has(3) {
            scale = has(6) && !has(7) ? .locrian : has(11) ? .harmonicMinor : .minor
        } else {
            scale = .major
        }
        return (PitchClass(lowest % 12), scale)
    }
}
