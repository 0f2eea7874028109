// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// Roman numerals for any chord in a key, the inverse of `RomanNumeral` for triads.
extension Key {
    /// The degree and accidental of a chord root in this key: the letter of its spelling counted from
    /// the tonic's letter gives the degree, the accidental is how far it lies from the key's own degree
    /// (B♭ in C major is ♭VII; G♯ in A minor is ♯VII).
    public func degreeAndAccidental(of root: PitchClass) -> (degree: ScaleDegree, accidental: Int) {
        let spelled = spell(root)
        let degree = ScaleDegree(wrappingIndex: spelled.letter - spelledTonic.letter)
        var accidental = PitchClass(tonic.value + scale.step(of: degree)).semitones(upTo: root)
        if accidental > 5 { accidental -= 12 }
        return (degree, accidental)
    }

    /// The chord's Roman numeral at triad level: case from its third, ° for a diminished fifth (ø for a
    /// half-diminished seventh), + for an augmented fifth, and ♭/♯ for a root off the scale
    /// ("V", "ii", "♭VII", "♯vii°", "viiø"); sus and other shapes are upper case. `style` picks ♭ or b.
    public func romanNumeral(for chord: Chord, style: SpellingStyle = .unicode) -> String {
        let (degree, accidental) = degreeAndAccidental(of: chord.root)
        let numeral = degree.romanNumeral
        let mark: String
        switch chord.quality {
        case .minor, .minor6, .minor7, .minor9, .minorMajor7: mark = numeral.lowercased()
        case .diminished, .diminished7: mark = numeral.lowercased() + (style == .unicode ? "°" : "o")
        case .halfDiminished7: mark = numeral.lowercased() + (style == .unicode ? "ø" : "o")
        case .augmented, .augmentedMajor7: mark = numeral + "+"
        case .other:
            let isMinor = chord.intervals.count > 1 && chord.intervals[1] % 12 == 3
            mark = isMinor ? numeral.lowercased() : numeral
        default: mark = numeral
        }
        return style.accidental(accidental) + mark
    }
}
