// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Testing
@testable import Theory

/// Spells a key's scale notes (unicode) as one string.
func spelledScale(_ key: Key) -> String {
    key.pitchClasses.map { key.spell($0).name() }.joined(separator: " ")
}

func key(_ text: String) -> Key { Key(parsing: text)! }

@Suite("Spelling")
struct SpellingTests {
    @Test("scales are spelled with one letter per degree", arguments: [
        ("Eb major", "E♭ F G A♭ B♭ C D"),
        ("F# major", "F♯ G♯ A♯ B C♯ D♯ E♯"),
        ("Gb major", "G♭ A♭ B♭ C♭ D♭ E♭ F"),
        ("C# major", "C♯ D♯ E♯ F♯ G♯ A♯ B♯"),
        ("A harmonic minor", "A B C D E F G♯"),
        ("Eb minor", "E♭ F G♭ A♭ B♭ C♭ D♭"),
        ("Bb dorian", "B♭ C D♭ E♭ F G A♭"),
        ("F lydian", "F G A B C D E"),
        ("Db mixolydian", "D♭ E♭ F G♭ A♭ B♭ C♭"),
        ("C melodic minor", "C D E♭ F G A B"),
        ("D major pentatonic", "D E F♯ A B"),
        ("Bb minor pentatonic", "B♭ D♭ E♭ F A♭"),
        ("C blues", "C E♭ F G♭ G B♭"),
        ("A blues", "A C D E♭ E G"),
    ])
    func scales(text: String, notes: String) {
        #expect(spelledScale(key(text)) == notes, "\(text)")
    }

    @Test("an unwritten tonic takes the key signature with the fewest accidentals", arguments: [
        (PitchClass.Eb, Scale.major, "E♭ major"), (.Cs, .major, "D♭ major"), (.Fs, .major, "F♯ major"),
        (.Ab, .major, "A♭ major"), (.Bb, .major, "B♭ major"), (.B, .major, "B major"),
        (.Gs, .minor, "G♯ minor"), (.As, .minor, "B♭ minor"), (.Cs, .minor, "C♯ minor"), (.Eb, .minor, "D♯ minor"),
        (.Eb, .dorian, "E♭ dorian"), (.Cs, .dorian, "C♯ dorian"), (.Fs, .phrygian, "F♯ phrygian"),
        (.As, .harmonicMinor, "B♭ harmonic minor"), (.Ab, .lydian, "A♭ lydian"),
    ])
    func preferredTonic(tonic: PitchClass, scale: Scale, name: String) {
        #expect(Key(tonic: tonic, scale: scale).description == name)
    }

    @Test("a written tonic is kept unless its signature needs more than seven accidentals")
    func writtenTonic() {
        #expect(key("Gb major").description == "G♭ major")
        #expect(key("F# major").description == "F♯ major")
        #expect(key("Eb minor").description == "E♭ minor")
        #expect(key("D# minor").description == "D♯ minor")
        #expect(key("D# major").description == "E♭ major")
        #expect(key("A# major").description == "B♭ major")
        #expect(key("Fb major").description == "E major")
        #expect(key("Cb major").description == "C♭ major")
        #expect(key("E♭ major") == key("Eb major"))
        #expect(key("Eb major").name(.ascii) == "Eb major")
        #expect(key("F# major").name(.ascii) == "F# major")
    }

    @Test("notes outside the key: fewest accidentals, then the usual interval")
    func chromatic() {
        let c = key("C major")
        #expect([1, 3, 6, 8, 10].map { c.spell(PitchClass($0)).name() } == ["D♭", "E♭", "F♯", "A♭", "B♭"])
        let a = key("A minor")
        #expect(a.spell(.Gs).name() == "G♯")
        #expect(a.spell(.Fs).name() == "F♯")
        #expect(a.spell(.Cs).name() == "C♯")
        let eb = key("Eb major")
        #expect(eb.spell(.E).name() == "E")
        #expect(eb.spell(.A).name() == "A")
        #expect(eb.spell(.Fs).name() == "G♭")
        let fs = key("F# major")
        #expect(fs.spell(.G).name() == "G")
        #expect(fs.spell(.C).name() == "C")
    }

    @Test("pitches keep the octave of their letter")
    func pitches() {
        let cs = key("C# major")
        #expect(cs.spell(Pitch(midi: 60)).name() == "B♯3")
        #expect(cs.spell(Pitch(midi: 65)).name() == "E♯4")
        #expect(key("Gb major").spell(Pitch(midi: 59)).name() == "C♭4")
        #expect(key("Eb major").spell(Pitch(midi: 63)).name(.ascii) == "Eb4")
        #expect(key("C major").spell(Pitch(midi: 21)).name() == "A0")
    }

    @Test("E♭ major chords are spelled with flats")
    func eFlatChords() {
        let eb = key("Eb major")
        #expect(ScaleDegree.all.map { eb.symbol(of: eb.seventhChord(on: $0)) } == ["E♭maj7", "Fm7", "Gm7", "A♭maj7", "B♭7", "Cm7", "Dø7"])
        #expect(ScaleDegree.all.map { eb.symbol(of: eb.seventhChord(on: $0), style: .ascii) } == ["Ebmaj7", "Fm7", "Gm7", "Abmaj7", "Bb7", "Cm7", "Dm7b5"])
        #expect(eb.spelledTones(of: eb.seventhChord(on: ScaleDegree(5)!)).map { $0.name() } == ["B♭", "D", "F", "A♭"])
    }

    @Test("chord tones are spelled by interval above the root")
    func chordTones() {
        let c = key("C major")
        #expect(c.spelledTones(of: Chord(root: .D, quality: .dominant7)).map { $0.name() } == ["D", "F♯", "A", "C"])
        #expect(c.spelledTones(of: Chord(root: .C, quality: .diminished7)).map { $0.name() } == ["C", "E♭", "G♭", "B𝄫"])
        #expect(c.spelledTones(of: Chord(root: .C, quality: .augmented)).map { $0.name() } == ["C", "E", "G♯"])
        let cm = key("C harmonic minor")
        #expect(cm.spelledTones(of: cm.seventhChord(on: ScaleDegree(7)!)).map { $0.name() } == ["B", "D", "F", "A♭"])
        #expect(key("F# major").spelledTones(of: key("F# major").seventhChord(on: ScaleDegree(5)!)).map { $0.name() } == ["C♯", "E♯", "G♯", "B"])
        #expect(c.symbol(of: Chord(root: .C, quality: .major), bass: .E) == "C/E")
        #expect(key("Eb major").symbol(of: Chord(root: .Ab, quality: .major), bass: .Eb) == "A♭/E♭")
    }

    @Test("spelled pitch classes parse and name")
    func spelledPitchClass() {
        #expect(SpelledPitchClass(name: "E♭")?.pitchClass == .Eb)
        #expect(SpelledPitchClass(name: "Cb")?.pitchClass == .B)
        #expect(SpelledPitchClass(name: "F𝄪")?.pitchClass == .G)
        #expect(SpelledPitchClass(name: "B#")?.name(.ascii) == "B#")
        #expect(SpelledPitchClass(name: "Bbb")?.name() == "B𝄫")
        #expect(SpelledPitchClass(name: "H") == nil)
        #expect(SpelledPitchClass(name: "C#b") == nil)
        #expect(SpelledPitchClass(name: "C###") == nil)
        for pc in PitchClass.allCases {
            #expect(SpelledPitchClass(name: pc.name)?.pitchClass == pc)
            #expect(SpelledPitchClass(name: pc.flatName)?.pitchClass == pc)
        }
    }
}
