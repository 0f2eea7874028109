/// A tonic pitch class paired with a seven-note scale, e.g. "C major" or "D dorian".
public struct Key: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The tonic (degree 1).
    public let tonic: PitchClass
    /// The scale or mode.
    public let scale: Scale

    /// Creates a key from a tonic and a scale.
    public init(tonic: PitchClass, scale: Scale) {
        self.tonic = tonic
        self.scale = scale
    }

    /// Tonic name and scale display name, e.g. "C major" or "A harmonic minor".
    public var description: String { "\(tonic.name) \(scale.displayName)" }

    /// The seven pitch classes of the key, degree 1 first.
    public var pitchClasses: [PitchClass] { ScaleDegree.all.map(pitchClass(of:)) }

    /// The pitch class at the given degree.
    public func pitchClass(of degree: ScaleDegree) -> PitchClass {
        tonic.transposed(by: scale.step(of: degree))
    }

    /// The degree holding the given pitch class, or nil if it is not in the key.
    public func degree(of pitchClass: PitchClass) -> ScaleDegree? {
        let offset = tonic.semitones(upTo: pitchClass)
        guard let index = scale.steps.firstIndex(of: offset) else { return nil }
        return ScaleDegree(wrappingIndex: index)
    }

    /// Whether the pitch class belongs to the key.
    public func contains(_ pitchClass: PitchClass) -> Bool { degree(of: pitchClass) != nil }

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
