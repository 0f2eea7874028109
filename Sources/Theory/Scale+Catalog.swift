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
    public static let harmonicMinor = Scale(catalogName: "harmonicMinor", steps: [0, 2, 3, 5, 7, 8, 11])
    /// Melodic minor (ascending form): natural minor with raised 6th and 7th.
    public static let melodicMinor = Scale(catalogName: "melodicMinor", steps: [0, 2, 3, 5, 7, 9, 11])

    /// Every catalog scale, in catalog order.
    public static let all: [Scale] = [
        .major, .dorian, .phrygian, .lydian, .mixolydian, .minor, .locrian, .harmonicMinor, .melodicMinor,
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
        return table
    }()
}
