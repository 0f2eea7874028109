// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// Spelling: how a key writes its tonic, its degrees, other notes and chords.
///
/// The rule (the one notation programs such as music21 and Tonal follow):
/// - The tonic's spelling is the one whose key signature needs the fewest accidentals, counting
///   the scale's `signatureSteps` (modes count their parent major's: D dorian has none; harmonic
///   minor counts the natural minor's). On a tie (six sharps or six flats) sharps win: F♯ major,
///   D♯ minor. A tonic written by the user is kept if it needs at most seven (G♭ major, E♭ minor).
/// - Degree n is written with the letter n − 1 above the tonic's (F♯ major has E♯; A harmonic
///   minor has G♯; E♭ major has E♭ A♭ B♭). Pentatonic scales use their parent's letters; the
///   blues ♭5 is the lowered fifth (C blues: G♭).
/// - A note outside the scale takes the letter needing the fewest accidentals; on a tie, the letter of
///   its usual interval above the tonic (♭2 ♭3 ♯4 ♭6 ♭7 in C: D♭ E♭ F♯ A♭ B♭; ♮7 in A minor: G♯).
/// - A chord's root is spelled as a note in the key, and every other tone by its interval's letter above
///   the root (D7 in C: D F♯ A C; B°7 in C minor: B D F A♭).
extension Key {
    /// The number of accidentals (double sharps and flats count two) in the key signature of a
    /// key on `tonic` with `scale` (its `signatureSteps`).
    public static func signatureAccidentals(_ tonic: SpelledPitchClass, scale: Scale) -> Int {
        (0..<7).reduce(0) { sum, index in
            sum + abs(tonic.transposed(letterSteps: index, semitones: scale.signatureSteps[index]).accidental)
        }
    }

    /// What a MIDI key-signature event (FF 59) says of this key: the signed accidentals of its
    /// signature (sharps positive, flats negative; the scale's `signatureSteps` spelled from the
    /// tonic, so D dorian has none and E♭ harmonic minor six flats), clamped to −7…7, and
    /// whether it is minor (the natural minor's signature: minor, harmonic and melodic minor,
    /// minor pentatonic, blues). The event knows only major and minor: another mode is written
    /// as its signature, major (D dorian as C, E phrygian as C).
    public var midiKeySignature: (sharps: Int, minor: Bool) {
        let sum = (0..<7).reduce(0) { sum, index in
            sum + spelledTonic.transposed(letterSteps: index, semitones: scale.signatureSteps[index]).accidental
        }
        return (min(7, max(-7, sum)), scale.signatureSteps == Scale.minor.steps)
    }

    /// The tonic spelling with the fewest key-signature accidentals (sharps on a tie).
    public static func preferredSpelling(of tonic: PitchClass, scale: Scale) -> SpelledPitchClass {
        let candidates = (0..<7).map { SpelledPitchClass(pitchClass: tonic, letter: $0) }.filter { abs($0.accidental) <= 1 }
        return candidates.min { a, b in
            let (ca, cb) = (signatureAccidentals(a, scale: scale), signatureAccidentals(b, scale: scale))
            return ca != cb ? ca < cb : a.accidental > b.accidental
        }!
    }

    /// How the key writes a harmonic degree (for a pentatonic scale, also one it leaves out).
    public func spelling(of degree: ScaleDegree) -> SpelledPitchClass {
        spelledTonic.transposed(letterSteps: degree.index, semitones: scale.step(of: degree))
    }

    /// How the key writes any pitch class (see the rule above).
    public func spell(_ pitchClass: PitchClass) -> SpelledPitchClass {
        let offset = tonic.semitones(upTo: pitchClass)
        if let index = scale.steps.firstIndex(of: offset) { return spelling(of: ScaleDegree(wrappingIndex: index)) }
        if let added = scale.addedTones.first(where: { $0.step == offset }) {
            return spelledTonic.transposed(letterSteps: added.letterOffset, semitones: offset)
        }
        let usual = (spelledTonic.letter + ChordQuality.letterStep(forInterval: offset)) % 7
        let candidates = (0..<7).map { SpelledPitchClass(pitchClass: pitchClass, letter: $0) }
        return candidates.min { a, b in
            if abs(a.accidental) != abs(b.accidental) { return abs(a.accidental) < abs(b.accidental) }
            if (a.letter == usual) != (b.letter == usual) { return a.letter == usual }
            return a.accidental > b.accidental
        }!
    }

    /// How the key writes a pitch, with octave, e.g. "B♭3".
    public func spell(_ pitch: Pitch) -> SpelledPitch { SpelledPitch(pitch: pitch, spelling: spell(pitch.pitchClass)) }

    /// The chord's tones as the key writes them, in chord-tone order.
    public func spelledTones(of chord: Chord) -> [SpelledPitchClass] {
        let root = spell(chord.root)
        let quality = chord.quality
        let steps = quality == .other ? chord.intervals.map(ChordQuality.letterStep(forInterval:)) : quality.letterSteps
        return zip(chord.intervals, steps).map { root.transposed(letterSteps: $1, semitones: $0) }
    }

    /// The chord symbol spelled for this key, e.g. "E♭maj7" (unicode) or "Ebmaj7" (ascii); a shape
    /// outside the catalog prints its intervals, "C(0,1,7)". With `bass` (a slash chord) the bass
    /// follows a slash: "C/E", spelled as the chord tone it is, else as a note of the key.
    public func symbol(of chord: Chord, bass: PitchClass? = nil, style: SpellingStyle = .unicode) -> String {
        let tones = spelledTones(of: chord)
        let root = tones.first ?? spell(chord.root)
        var text = root.name(style)
        if let suffix = chord.quality.suffix(style) {
            text += suffix
        } else {
            text += "(" + chord.intervals.map(String.init).joined(separator: ",") + ")"
        }
        if let bass, bass != chord.root {
            let written = zip(chord.tones, tones).first { $0.0 == bass }?.1 ?? spell(bass)
            text += "/" + written.name(style)
        }
        return text
    }
}
