// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// A written chord symbol: a spelled root, a quality from the catalog, and an optional bass ("E♭maj7", "C/E").
public struct ChordSymbol: Sendable, Hashable, CustomStringConvertible {
    /// The root as written.
    public let root: SpelledPitchClass
    /// The quality (never `.other`).
    public let quality: ChordQuality
    /// The bass note of a slash chord, or nil.
    public let bass: SpelledPitchClass?

    /// Creates a symbol from its parts.
    public init(root: SpelledPitchClass, quality: ChordQuality, bass: SpelledPitchClass? = nil) {
        self.root = root
        self.quality = quality
        self.bass = bass
    }

    /// Parses "Cmaj7", "E♭m7", "F#ø7", "Bbm7b5", "Gsus4", "Dadd9", "C/E": a root, a suffix
    /// (see `ChordQuality.acceptedSuffixes`, case-sensitive: "M7" is maj7, "m7" minor seventh) and /bass.
    public init(parsing text: String) throws(TheoryError) {
        let trimmed = text.trimmingSpaces
        guard let head = SpelledNote(parsing: Substring(trimmed)) else {
            throw .unknownChordSymbol(text, reason: "it does not start with a note name A–G")
        }
        var suffix = String(head.rest)
        var bass: SpelledPitchClass?
        if let slash = suffix.lastIndex(of: "/"), let note = SpelledPitchClass(name: String(suffix[suffix.index(after: slash)...])) {
            bass = note
            suffix = String(suffix[..<slash])
        }
        guard let quality = ChordQuality.allCases.first(where: { $0.acceptedSuffixes.contains(suffix) }) else {
            throw .unknownChordSymbol(text, reason: "the suffix \"\(suffix)\" is not in the chord catalog")
        }
        self.init(root: SpelledPitchClass(letter: head.letter, accidental: head.accidental), quality: quality, bass: bass)
    }

    /// The chord it names (pitch classes; the bass is not a chord tone unless it is one).
    public var chord: Chord { Chord(root: root.pitchClass, quality: quality) }

    /// The symbol in the given style: "E♭maj7" or "Ebmaj7", "Bø7" or "Bm7b5", with "/bass" if any.
    public func name(_ style: SpellingStyle = .unicode) -> String {
        root.name(style) + (quality.suffix(style) ?? "") + (bass.map { "/" + $0.name(style) } ?? "")
    }

    /// The symbol with music symbols ("B♭maj7") of one Clumsy wrote in ASCII ("Bbmaj7", as in
    /// its MIDI files' chord markers); any other text as it is.
    public static func shown(_ text: String) -> String {
        guard let symbol = try? ChordSymbol(parsing: text), symbol.name(.ascii) == text else { return text }
        return symbol.name(.unicode)
    }

    /// The unicode symbol.
    public var description: String { name(.unicode) }
}
