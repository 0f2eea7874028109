// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// A pitch as written: a spelled pitch class and the octave of its letter (B♯3 sounds as C4, MIDI 60).
public struct SpelledPitch: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The pitch that sounds.
    public let pitch: Pitch
    /// How its pitch class is written.
    public let spelling: SpelledPitchClass

    /// Writes `pitch` with `spelling`; `spelling` must name the pitch's pitch class (precondition).
    public init(pitch: Pitch, spelling: SpelledPitchClass) {
        precondition(spelling.pitchClass == pitch.pitchClass, "\(spelling) does not spell \(pitch)")
        self.pitch = pitch
        self.spelling = spelling
    }

    /// Scientific octave of the letter: C♭4 is MIDI 59 and B♯3 is MIDI 60.
    public var octave: Int {
        let natural = pitch.midi - spelling.accidental - SpelledPitchClass.naturalSemitones[spelling.letter]
        let (q, r) = natural.quotientAndRemainder(dividingBy: 12)
        return (r < 0 ? q - 1 : q) - 1
    }

    /// The name in the given style, e.g. "E♭4" (unicode) or "Eb4" (ascii).
    public func name(_ style: SpellingStyle = .unicode) -> String { spelling.name(style) + String(octave) }

    /// The unicode name.
    public var description: String { name(.unicode) }
}
