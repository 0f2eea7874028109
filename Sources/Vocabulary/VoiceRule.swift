// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Theory

/// A derived voice's rule: which note it plays with each note of the voice it follows.
public enum VoiceRule: Sendable, Hashable, CustomStringConvertible {
    /// The scale's own interval (2 a second … 3 a third … 8 an octave; negative below),
    /// counted along the seven-degree scale the key's scale is drawn from; where that
    /// degree is not played (pentatonic, blues) the next scale tone further away. A note
    /// outside the scale (from a borrowed chord) is moved `fallbackSemitones` instead.
    case diatonic(Int)
    /// A fixed number of semitones, −24…24 (negative below), whatever the key.
    case semitones(Int)

    /// The diatonic intervals a rule accepts: a second to an octave, above or below.
    public static let diatonicRange = 2...8
    /// The semitones a rule accepts, above or below (two octaves).
    public static let semitoneRange = 1...24

    /// For a diatonic interval 2…8, the semitones a note outside the scale is moved:
    /// a major second, minor third, fourth, fifth, major sixth, minor seventh, octave.
    public static func fallbackSemitones(_ interval: Int) -> Int {
        [2: 2, 3: 3, 4: 5, 5: 7, 6: 9, 7: 10, 8: 12][abs(interval)] ?? 0
    }

    /// "a third above", "a sixth below", "7 semitones above".
    public var description: String {
        switch self {
        case .diatonic(let interval):
            let names = [2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth", 7: "seventh", 8: "octave"]
            let name = names[abs(interval)] ?? "\(abs(interval))th"
            return (name == "octave" ? "an " : "a ") + name + (interval < 0 ? " below" : " above")
        case .semitones(let count):
            return "\(abs(count)) semitone\(abs(count) == 1 ? "" : "s")" + (count < 0 ? " below" : " above")
        }
    }

    /// The note for each MIDI note 0…127 in `key`, kept in MIDI 0…127 by octaves.
    public func notes(in key: Key) -> [Int] {
        switch self {
        case .semitones(let count):
            return (0...127).map { Self.inRange($0 + count) }
        case .diatonic(let interval):
            let parent = (0...127).filter { note in key.scale.steps.contains(key.tonic.semitones(upTo: PitchClass(note))) }
            let direction = interval < 0 ? -1 : 1
            let degrees = (abs(interval) - 1) * direction
            return (0...127).map { note in
                // Worked out in the octave from C4 and moved back, so the edges of the MIDI range behave alike.
                let shift = 60 + note % 12 - note
                var result = note + Self.fallbackSemitones(interval) * direction
                if key.contains(PitchClass(note)), let index = parent.firstIndex(of: note + shift) {
                    result = parent[index + degrees] - shift
                    while !key.contains(PitchClass(result)) { result += direction }
                }
                return Self.inRange(result)
            }
        }
    }

    /// `note` moved by octaves into MIDI 0…127.
    static func inRange(_ note: Int) -> Int {
        var result = note
        while result < 0 { result += 12 }
        while result > 127 { result -= 12 }
        return result
    }
}
