import Performance
import Theory

/// How the text view and the live status name each degree's chord.
enum ChordNames {
    /// Each degree's numeral and chord symbol: a bouncer's own degree chord keeps its degree's
    /// numeral; a chord given in the preset is named from its root.
    static func of(_ chords: [Chord], in key: Key) -> (numerals: [String], symbols: [String]) {
        let numerals = ScaleDegree.all.map { degree in
            let chord = chords[degree.index]
            return chord.root == key.pitchClass(of: degree) && key.degrees.contains(degree)
                ? key.romanNumeral(of: degree) : key.romanNumeral(for: chord.intervals.count > 3 ? chord.triad : chord)
        }
        return (numerals, chords.map { key.symbol(of: $0) })
    }
}
