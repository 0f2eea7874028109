// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

extension Scale {
    /// Major (Ionian): W W H W W W H.
    public static let major = Scale(catalogName: "major", steps: [0, 2, 4, 5, 7, 9, 11])
    /// Dorian mode.
    public static let dorian = Scale(catalogName: "dorian", steps: [0, 2, 3, 5, 7, 9, 10])
    /// Phrygian mode.
    public static let phrygian = Scale(catalogName: "phrygian", steps: [0, 1, 3, 5, 7, 8, 10])
    /// Lydian mode.
    public static let lydian = Scale(catalogName: "lydian", steps: [0, 2, 4, 6, 7, 9, 11])
    /// Mixolydian mode.
    public static let mixolydian = Scale(catalogName: "mixolydian", steps: [0, 2, 4, 5, 7, 9, 10])
    /// Natural minor (Aeolian).
    public static let minor = Scale(catalogName: "minor", steps: [0, 2, 3, 5, 7, 8, 10])
    /// Locrian mode.
    public static let locrian = Scale(catalogName: "locrian", steps: [0, 1, 3, 5, 6, 8, 10])
    /// Harmonic minor: natural minor with a raised 7th.
    public static let harmonicMinor = Scale(catalogName: "harmonicMinor", steps: [0, 2, 3, 5, 7, 8, 11],
                                            signatureSteps: [0, 2, 3, 5, 7, 8, 10])
    /// Melodic minor (ascending form): natural minor with raised 6th and 7th.
    public static let melodicMinor = Scale(catalogName: "melodicMinor", steps: [0, 2, 3, 5, 7, 9, 11],
                                           signatureSteps: [0, 2, 3, 5, 7, 8, 10])
    /// Major pentatonic: degrees 1 2 3 5 6 of major (C D E G A); chords and numerals are major's.
    public static let majorPentatonic = Scale(catalogName: "majorPentatonic", steps: [0, 2, 4, 5, 7, 9, 11],
                                              degrees: [1, 2, 3, 5, 6])
    /// Minor pentatonic: degrees 1 3 4 5 7 of natural minor (A C D E G); chords and numerals are natural minor's.
    public static let minorPentatonic = Scale(catalogName: "minorPentatonic", steps: [0, 2, 3, 5, 7, 8, 10],
                                              degrees: [1, 3, 4, 5, 7])
    /// Blues: minor pentatonic plus the blue note ♭5 (A C D E♭ E G), an added tone without a chord.
    public static let blues = Scale(catalogName: "blues", steps: [0, 2, 3, 5, 7, 8, 10], degrees: [1, 3, 4, 5, 7],
                                    addedTones: [ScaleTone(step: 6, letterOffset: 4)])

    /// Every catalog scale, in catalog order.
    public static let all: [Scale] = [
        .major, .dorian, .phrygian, .lydian, .mixolydian, .minor, .locrian, .harmonicMinor, .melodicMinor,
        .majorPentatonic, .minorPentatonic, .blues,
    ]

    /// Canonical names of the catalog scales, e.g. for error messages.
    public static var catalogNames: [String] { all.map(\.name) }

    /// Looks up a catalog scale by name or alias, ignoring case, spaces, hyphens and underscores.
    public static func named(_ name: String) -> Scale? {
        let key = String(name.lowercased().filter { !$0.isWhitespace && $0 != "-" && $0 != "_" })
        return aliases[key]
    }

    /// Normalized name (lower case, no separators) → scale.
    private static let aliases: [String: Scale] = {
        var table: [String: Scale] = [:]
        for scale in all { table[scale.name.lowercased()] = scale }
        table["ionian"] = .major
        table["aeolian"] = .minor
        table["naturalminor"] = .minor
        table["melodicminorascending"] = .melodicMinor
        table["jazzminor"] = .melodicMinor
        table["pentatonic"] = .majorPentatonic
        table["pentatonicmajor"] = .majorPentatonic
        table["pentatonicminor"] = .minorPentatonic
        table["minorblues"] = .blues
        return table
    }()
}
