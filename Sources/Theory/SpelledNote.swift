// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// A parsed letter-plus-accidentals prefix; `semitones` is unwrapped (Cb = -1, B# = 12).
struct SpelledNote {
    /// Letter index 0 (C) … 6 (B).
    let letter: Int
    /// Accidental in semitones, −2…2.
    let accidental: Int
    /// Unparsed remainder of the input.
    let rest: Substring

    /// Letter value plus accidental offset, not wrapped.
    var semitones: Int { SpelledPitchClass.naturalSemitones[letter] + accidental }

    /// Parses a letter A–G (any case) and up to two accidentals of one kind (#, ♯, 𝄪 or b, ♭, 𝄫) from the start of `text`.
    init?(parsing text: Substring) {
        guard let first = text.first,
              let letter = SpelledPitchClass.letterNames.firstIndex(of: first.uppercased()) else { return nil }
        var rest = text.dropFirst()
        var offset = 0
        while let c = rest.first {
            let step: Int
            switch c {
            case "#", "♯": step = 1
            case "b", "♭": step = -1
            case "𝄪": step = 2
            case "𝄫": step = -2
            default: step = 0
            }
            if step == 0 { break }
            if offset != 0 && (offset > 0) != (step > 0) { return nil }
            offset += step
            if abs(offset) > 2 { return nil }
            rest = rest.dropFirst()
        }
        self.letter = letter
        self.accidental = offset
        self.rest = rest
    }
}
