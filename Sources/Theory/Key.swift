// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// A tonic paired with a scale, e.g. "C major", "D dorian" or "A minor pentatonic".
///
/// The key also carries how its tonic is written (`spelledTonic`), from which every note, chord
/// and key name it prints is spelled (see `Key+Spelling.swift`).
public struct Key: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The tonic (degree 1).
    public let tonic: PitchClass
    /// The scale or mode.
    public let scale: Scale
    /// How the tonic is written, e.g. E♭ rather than D♯.
    public let spelledTonic: SpelledPitchClass

    /// Creates a key from a tonic and a scale; the tonic is spelled by `Key.preferredSpelling`.
    public init(tonic: PitchClass, scale: Scale) {
        self.tonic = tonic
        self.scale = scale
        self.spelledTonic = Key.preferredSpelling(of: tonic, scale: scale)
    }

    /// Creates a key from a written tonic. The spelling is kept when its key signature needs at
    /// most 7 accidentals (G♭ major, D♯ minor, C♯ major); a theoretical key such as D♯ major
    /// (9 sharps) is respelled as its enharmonic, E♭ major.
    public init(spelledTonic: SpelledPitchClass, scale: Scale) {
        self.tonic = spelledTonic.pitchClass
        self.scale = scale
        self.spelledTonic = Key.signatureAccidentals(spelledTonic, scale: scale) <= 7
            ? spelledTonic : Key.preferredSpelling(of: spelledTonic.pitchClass, scale: scale)
    }

    /// Parses text like "C major", "F# dorian", "E♭ harmonic minor", "a natural-minor" or "A minor pentatonic",
    /// keeping the tonic's spelling.
    public init?(parsing text: String) {
        let trimmed = text.trimmingSpaces
        guard let space = trimmed.firstIndex(where: \.isWhitespace),
              let tonic = SpelledPitchClass(name: String(trimmed[..<space])),
              let scale = Scale.named(String(trimmed[space...]).trimmingSpaces)
        else { return nil }
        self.init(spelledTonic: tonic, scale: scale)
    }

    private enum CodingKeys: String, CodingKey { case tonic, scale }

    /// Decodes `{"tonic": "Eb", "scale": "major"}`; the tonic may also be a pitch-class number (spelled by the rule).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let scale = try container.decode(Scale.self, forKey: .scale)
        if let number = try? container.decode(Int.self, forKey: .tonic) {
            self.init(tonic: PitchClass(number), scale: scale)
            return
        }
        let text = try container.decode(String.self, forKey: .tonic)
        guard let tonic = SpelledPitchClass(name: text) else {
            throw DecodingError.dataCorruptedError(forKey: .tonic, in: container,
                                                   debugDescription: "\"\(text)\" is not a note name such as \"C\", \"F#\" or \"Bb\"")
        }
        self.init(spelledTonic: tonic, scale: scale)
    }

    /// Encodes as `{"tonic": "Eb", "scale": …}` with the tonic's ascii spelling.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(spelledTonic.name(.ascii), forKey: .tonic)
        try container.encode(scale, forKey: .scale)
    }

    /// Tonic name and scale display name, e.g. "E♭ major" or "A harmonic minor" (unicode accidentals).
    public var description: String { name(.unicode) }

    /// Tonic name and scale display name in the given style: "E♭ major" or, in ascii, "Eb major".
    public func name(_ style: SpellingStyle) -> String { "\(spelledTonic.name(style)) \(scale.displayName)" }

    /// The harmonic degrees the scale plays (seven, or five for a pentatonic scale), ascending.
    public var degrees: [ScaleDegree] { scale.degrees }

    /// The pitch classes the scale plays (7, 6 or 5), ascending from the tonic.
    public var pitchClasses: [PitchClass] { scale.toneSteps.map { tonic.transposed(by: $0) } }

    /// The pitch class at the given harmonic degree (for a pentatonic scale, also a degree it leaves out).
    public func pitchClass(of degree: ScaleDegree) -> PitchClass {
        tonic.transposed(by: scale.step(of: degree))
    }

    /// The degree of the scale holding the given pitch class, or nil if the scale does not play it as a degree
    /// (not in the scale, or the blues scale's added ♭5).
    public func degree(of pitchClass: PitchClass) -> ScaleDegree? {
        let offset = tonic.semitones(upTo: pitchClass)
        guard let index = scale.steps.firstIndex(of: offset) else { return nil }
        let degree = ScaleDegree(wrappingIndex: index)
        return scale.contains(degree) ? degree : nil
    }

    /// Whether the scale plays the pitch class (a degree or an added tone).
    public func contains(_ pitchClass: PitchClass) -> Bool { scale.toneSteps.contains(tonic.semitones(upTo: pitchClass)) }

    /// The diatonic chord on `degree` stacked in thirds with `toneCount` tones (3 = triad, 4 = seventh).
    public func chord(on degree: ScaleDegree, toneCount: Int) -> Chord {
        let rootStep = scale.step(of: degree)
        let intervals = (0..<max(1, toneCount)).map { k in
            let step = scale.step(of: degree.advanced(by: 2 * k))
            return (((step - rootStep) % 12) + 12) % 12 + 12 * ((2 * k) / 7)
        }
        return Chord(root: pitchClass(of: degree), intervals: intervals)
    }

    /// The diatonic triad on `degree` (degrees d, d+2, d+4).
    public func triad(on degree: ScaleDegree) -> Chord { chord(on: degree, toneCount: 3) }

    /// The diatonic seventh chord on `degree` (degrees d, d+2, d+4, d+6).
    public func seventhChord(on degree: ScaleDegree) -> Chord { chord(on: degree, toneCount: 4) }

    /// Roman numeral of the triad on `degree`: upper case for major/augmented, lower for minor/diminished, with "°" or "+".
    public func romanNumeral(of degree: ScaleDegree) -> String {
        let numeral = degree.romanNumeral
        let triad = triad(on: degree)
        switch triad.quality {
        case .major: return numeral
        case .augmented: return numeral + "+"
        case .minor: return numeral.lowercased()
        case .diminished: return numeral.lowercased() + "°"
        default:
            return triad.intervals.count > 1 && triad.intervals[1] == 3 ? numeral.lowercased() : numeral
        }
    }

    /// Bass note for the chord on `degree`: its root folded into [base, base + 12).
    public func bassPitch(of degree: ScaleDegree, base: Pitch) -> Pitch {
        base.nextUp(to: pitchClass(of: degree))
    }

    /// Pitches of the seventh chord on `degree` under the given voicing, in chord-tone order.
    public func seventhChordPitches(on degree: ScaleDegree, voicing: Voicing, base: Pitch) -> [Pitch] {
        voicing.pitches(of: seventhChord(on: degree), base: base)
    }
}
