// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// A pitch class as written: a letter C…B and an accidental (E♭ and D♯ are two spellings of one pitch class).
///
/// Spelling is kept apart from pitch arithmetic: `PitchClass` and `Pitch` compute, this type only names.
/// A key chooses the spelling (see `Key.spell(_:)`).
public struct SpelledPitchClass: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Letter index: 0 = C, 1 = D, 2 = E, 3 = F, 4 = G, 5 = A, 6 = B.
    public let letter: Int
    /// Accidental in semitones: −2 = 𝄫, −1 = ♭, 0 = natural, 1 = ♯, 2 = 𝄪.
    public let accidental: Int

    /// Creates a spelling from a letter index (wrapped modulo 7) and an accidental in semitones.
    public init(letter: Int, accidental: Int) {
        self.letter = ((letter % 7) + 7) % 7
        self.accidental = accidental
    }

    /// Spells `pitchClass` on the given letter (wrapped modulo 7); the accidental is the smallest
    /// signed distance from the natural letter, in −6…5 (so C♭ is letter C with −1).
    public init(pitchClass: PitchClass, letter: Int) {
        let wrapped = ((letter % 7) + 7) % 7
        var offset = PitchClass(SpelledPitchClass.naturalSemitones[wrapped]).semitones(upTo: pitchClass)
        if offset > 5 { offset -= 12 }
        self.init(letter: wrapped, accidental: offset)
    }

    /// Parses "E♭", "Eb", "F#", "f♯", "C𝄪", "Bbb": a letter A–G and up to two sharps or flats.
    public init?(name: String) {
        guard let parsed = SpelledNote(parsing: Substring(name)), parsed.rest.isEmpty else { return nil }
        self.init(letter: parsed.letter, accidental: parsed.accidental)
    }

    /// The pitch class this spelling sounds.
    public var pitchClass: PitchClass { PitchClass(SpelledPitchClass.naturalSemitones[letter] + accidental) }

    /// The letter as text, "C" … "B".
    public var letterName: String { SpelledPitchClass.letterNames[letter] }

    /// The name in the given style: "E♭" (unicode) or "Eb" (ascii).
    public func name(_ style: SpellingStyle = .unicode) -> String { letterName + style.accidental(accidental) }

    /// The unicode name, e.g. "F♯".
    public var description: String { name(.unicode) }

    /// The spelling `letterSteps` letters higher whose pitch class is `semitones` above this one
    /// (a spelled interval: a major third is 2 letters, 4 semitones, so E♭ → G).
    public func transposed(letterSteps: Int, semitones: Int) -> SpelledPitchClass {
        let target = letter + letterSteps
        let sounding = pitchClass.transposed(by: semitones)
        return SpelledPitchClass(pitchClass: sounding, letter: target)
    }

    /// Semitones of the natural letters C D E F G A B above C.
    public static let naturalSemitones = [0, 2, 4, 5, 7, 9, 11]
    /// Letter names in order.
    public static let letterNames = ["C", "D", "E", "F", "G", "A", "B"]
}
