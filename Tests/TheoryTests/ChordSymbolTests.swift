// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Testing
@testable import Theory

@Suite("Chord catalog, symbols and Roman numerals")
struct ChordSymbolTests {
    @Test("every catalog quality parses on every root and prints back", arguments: ChordQuality.allCases.filter { $0 != .other })
    func catalogRoundTrip(quality: ChordQuality) throws {
        for root in ["C", "C#", "Db", "Eb", "F#", "Gb", "Ab", "Bb", "B"] {
            let spelled = SpelledPitchClass(name: root)!
            for suffix in quality.acceptedSuffixes {
                let symbol = try ChordSymbol(parsing: root + suffix)
                #expect(symbol.root == spelled)
                #expect(symbol.quality == quality, "\(root + suffix)")
                #expect(symbol.chord.intervals == quality.intervals)
                #expect(symbol.chord.quality == quality)
            }
            let printed = ChordSymbol(root: spelled, quality: quality)
            #expect(try ChordSymbol(parsing: printed.name(.unicode)) == printed)
            #expect(try ChordSymbol(parsing: printed.name(.ascii)) == printed)
        }
    }

    @Test("the catalog's intervals")
    func intervals() throws {
        let expected: [String: [Int]] = [
            "C": [0, 4, 7], "Cm": [0, 3, 7], "Cdim": [0, 3, 6], "Caug": [0, 4, 8], "Csus2": [0, 2, 7], "Csus4": [0, 5, 7],
            "C6": [0, 4, 7, 9], "Cm6": [0, 3, 7, 9], "Cmaj7": [0, 4, 7, 11], "Cm7": [0, 3, 7, 10], "C7": [0, 4, 7, 10],
            "Cdim7": [0, 3, 6, 9], "Cm7b5": [0, 3, 6, 10], "CmMaj7": [0, 3, 7, 11], "Cadd9": [0, 4, 7, 14],
            "C9": [0, 4, 7, 10, 14], "Cmaj9": [0, 4, 7, 11, 14], "Cm9": [0, 3, 7, 10, 14],
        ]
        for (text, intervals) in expected {
            #expect(try ChordSymbol(parsing: text).chord.intervals == intervals, "\(text)")
        }
    }

    @Test("slash chords and spelling of symbols")
    func slash() throws {
        let symbol = try ChordSymbol(parsing: "Ab/Eb")
        #expect(symbol.bass == SpelledPitchClass(name: "Eb"))
        #expect(symbol.name() == "A♭/E♭")
        #expect(try ChordSymbol(parsing: "F#m7b5").name() == "F♯ø7")
        #expect(try ChordSymbol(parsing: "Bbdim7").name(.ascii) == "Bbdim7")
    }

    @Test("bad symbols say what is accepted", arguments: ["Hmaj7", "Cmaj13", "", "C/H", "7"])
    func badSymbols(text: String) {
        #expect {
            _ = try ChordSymbol(parsing: text)
        } throws: { error in
            let message = "\(error)"
            return message.contains("\"\(text)\"") && message.contains("maj7") && message.contains("expected")
        }
    }

    func chord(_ numeral: String, _ keyText: String) throws -> String {
        let key = Key(parsing: keyText)!
        return key.symbol(of: try RomanNumeral(parsing: numeral).chord(in: key))
    }

    @Test("Roman numerals: diatonic, borrowed, secondary", arguments: [
        ("I", "C major", "C"), ("ii", "C major", "Dm"), ("V", "C major", "G"), ("vii°", "C major", "B°"),
        ("I7", "C major", "Cmaj7"), ("ii7", "C major", "Dm7"), ("V7", "C major", "G7"), ("viiø7", "C major", "Bø7"),
        ("vii°7", "C major", "B°7"), ("IV7", "C major", "Fmaj7"),
        ("iv", "C major", "Fm"), ("♭VII", "C major", "B♭"), ("bVI", "C major", "A♭"), ("bIII", "C major", "E♭"),
        ("♭II", "C major", "D♭"), ("#iv°", "C major", "F♯°"), ("bVII7", "C major", "B♭7"),
        ("V/V", "C major", "D"), ("V7/V", "C major", "D7"), ("V7/vi", "C major", "E7"), ("V/ii", "C major", "A"),
        ("vii°7/V", "C major", "F♯°7"), ("V/V/V", "C major", "A"),
        ("V", "A minor", "E"), ("V7", "A minor", "E7"), ("v", "A minor", "Em"), ("i", "A minor", "Am"), ("VI", "A minor", "F"),
        ("iv", "Eb major", "A♭m"), ("V7/V", "Eb major", "F7"), ("♭VII", "Eb major", "D♭"), ("ii7", "Eb major", "Fm7"),
        ("V7", "F# major", "C♯7"), ("IV", "F# major", "B"),
        ("Isus4", "C major", "Csus4"), ("V7sus4", "C major", "G7sus4-like"), ("I6", "C major", "C6"), ("ii9", "C major", "Dm9"),
        ("Iadd9", "C major", "Cadd9"), ("V9", "C major", "G9"), ("III+", "A harmonic minor", "C+"),
    ])
    func numerals(numeral: String, keyText: String, expected: String) throws {
        if expected == "G7sus4-like" {
            let key = Key(parsing: keyText)!
            let chord = try RomanNumeral(parsing: numeral).chord(in: key)
            #expect(chord.root == .G)
            #expect(chord.intervals == [0, 5, 7, 10])
            return
        }
        #expect(try chord(numeral, keyText) == expected, "\(numeral) in \(keyText)")
    }

    @Test("a numeral for a degree the scale lacks is refused, naming the degrees it has")
    func missingDegree() throws {
        let pentatonic = Key(parsing: "C major pentatonic")!
        #expect(try pentatonic.symbol(of: RomanNumeral(parsing: "V").chord(in: pentatonic)) == "G")
        #expect {
            _ = try RomanNumeral(parsing: "IV").chord(in: pentatonic)
        } throws: { error in
            "\(error)".contains("\"IV\"") && "\(error)".contains("C major pentatonic") && "\(error)".contains("I ii iii V vi")
        }
        #expect(try pentatonic.symbol(of: RomanNumeral(parsing: "bVII").chord(in: pentatonic)) == "B♭")
    }

    @Test("bad numerals say what is accepted", arguments: ["VIII", "X", "V/", "Vx", "bbVII", "Vi", ""])
    func badNumerals(text: String) {
        #expect {
            _ = try RomanNumeral(parsing: text)
        } throws: { error in
            "\(error)".contains("\"\(text)\"") && "\(error)".contains("V/V")
        }
    }

    @Test("chord specifications: numeral, symbol, intervals")
    func specifications() throws {
        let c = Key(parsing: "C major")!
        let five = ScaleDegree(5)!
        #expect(try ChordSpecification(parsing: "V7/V").chord(in: c, degree: five) == Chord(root: .D, quality: .dominant7))
        #expect(try ChordSpecification(parsing: "Bb7").chord(in: c, degree: five) == Chord(root: .Bb, quality: .dominant7))
        #expect(try ChordSpecification(parsing: "0 4 7 10").chord(in: c, degree: five) == Chord(root: .G, quality: .dominant7))
        #expect(try ChordSpecification(parsing: "[0, 3, 7]").chord(in: c, degree: five) == Chord(root: .G, quality: .minor))
        #expect(try ChordSpecification.diatonic(toneCount: 5).chord(in: c, degree: five) == Chord(root: .G, quality: .dominant9))
        for bad in ["0 4 4", "4 7", "0 30", "0", "[0 4", "0 x", "?", "Q7"] {
            #expect(throws: TheoryError.self, "\(bad)") { _ = try ChordSpecification(parsing: bad) }
        }
    }
}
