/// The quality of a triad or seventh chord, derived from its intervals above the root.
public enum ChordQuality: String, Sendable, Hashable, CaseIterable, Codable {
    /// Major seventh: 0 4 7 11.
    case major7
    /// Minor seventh: 0 3 7 10.
    case minor7
    /// Dominant seventh: 0 4 7 10.
    case dominant7
    /// Half-diminished seventh (m7♭5): 0 3 6 10.
    case halfDiminished7
    /// Diminished seventh: 0 3 6 9.
    case diminished7
    /// Minor-major seventh: 0 3 7 11.
    case minorMajor7
    /// Augmented major seventh: 0 4 8 11.
    case augmentedMajor7
    /// Major triad: 0 4 7.
    case major
    /// Minor triad: 0 3 7.
    case minor
    /// Diminished triad: 0 3 6.
    case diminished
    /// Augmented triad: 0 4 8.
    case augmented
    /// Any other interval combination.
    case other

    /// Classifies intervals above a root (compared modulo 12, order preserved); unknown shapes give `.other`.
    public init(intervals: [Int]) {
        let normalized = intervals.map { (($0 % 12) + 12) % 12 }
        self = ChordQuality.allCases.first { $0.intervals == normalized } ?? .other
    }

    /// Canonical intervals above the root (empty for `.other`).
    public var intervals: [Int] {
        switch self {
        case .major7: [0, 4, 7, 11]
        case .minor7: [0, 3, 7, 10]
        case .dominant7: [0, 4, 7, 10]
        case .halfDiminished7: [0, 3, 6, 10]
        case .diminished7: [0, 3, 6, 9]
        case .minorMajor7: [0, 3, 7, 11]
        case .augmentedMajor7: [0, 4, 8, 11]
        case .major: [0, 4, 7]
        case .minor: [0, 3, 7]
        case .diminished: [0, 3, 6]
        case .augmented: [0, 4, 8]
        case .other: []
        }
    }

    /// Symbol suffix written after the root name, e.g. "maj7", "m7", "ø7", "°", "" (nil for `.other`).
    public var suffix: String? {
        switch self {
        case .major7: "maj7"
        case .minor7: "m7"
        case .dominant7: "7"
        case .halfDiminished7: "ø7"
        case .diminished7: "°7"
        case .minorMajor7: "mMaj7"
        case .augmentedMajor7: "+maj7"
        case .major: ""
        case .minor: "m"
        case .diminished: "°"
        case .augmented: "+"
        case .other: nil
        }
    }

    /// Whether the chord has a seventh (four-note qualities).
    public var isSeventh: Bool { intervals.count == 4 }
}
