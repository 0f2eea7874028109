/// A parsed letter-plus-accidentals prefix; `semitones` is unwrapped (Cb = -1, B# = 12).
struct SpelledNote {
    /// Letter value plus accidental offset, not wrapped.
    let semitones: Int
    /// Unparsed remainder of the input.
    let rest: Substring

    /// Parses a letter A–G (any case) and up to two accidentals of one kind from the start of `text`.
    init?(parsing text: Substring) {
        guard let letter = text.first else { return nil }
        let letterValues: [Character: Int] = ["C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11]
        guard let base = letterValues[Character(letter.uppercased())] else { return nil }
        var rest = text.dropFirst()
        var offset = 0
        var kind: Int = 0
        var count = 0
        while let c = rest.first {
            let step: Int
            switch c {
            case "#", "♯": step = 1
            case "b", "♭": step = -1
            default: step = 0
            }
            if step == 0 { break }
            if kind != 0 && kind != step { return nil }
            kind = step
            count += 1
            if count > 2 { return nil }
            offset += step
            rest = rest.dropFirst()
        }
        self.semitones = base + offset
        self.rest = rest
    }
}
