// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// The colours of every picture: a dark stage, one hue per scale degree, one per chord tone.
enum Palette {
    static let background = Colour(hex: 0x12141A)
    static let panel = Colour(hex: 0x1A1D25)
    static let bassArea = Colour(hex: 0x1C2030)
    static let pianoArea = Colour(hex: 0x1B2422)
    static let wall = Colour(hex: 0x6B7280)
    static let filler = Colour(hex: 0x3A3F4A)
    static let text = Colour(hex: 0xE8EAF0)
    static let dimText = Colour(hex: 0x9AA0AC)
    static let grid = Colour(hex: 0x30353F)
    static let barLine = Colour(hex: 0x4A505C)
    static let bassBall = Colour(hex: 0xFF9F1C)
    static let pianoBall = Colour(hex: 0xF4F4F8)
    static let white = Colour(1, 1, 1)

    /// Degrees I…VII.
    static let degrees: [Colour] = [0xE4572E, 0xF3A712, 0xA8C256, 0x29BF12, 0x00A5CF, 0x5D6CEB, 0xC04CD4].map { Colour(hex: $0) }
    /// Chord tones root, 3rd, 5th, 7th, 9th.
    static let tones: [Colour] = [0xEF476F, 0xFFD166, 0x06D6A0, 0x4CC9F0, 0xB388EB].map { Colour(hex: $0) }
    /// Lanes of a piano roll.
    static let lanes: [Colour] = [0xFF9F1C, 0x4CC9F0, 0x06D6A0, 0xEF476F, 0xFFD166, 0xC04CD4].map { Colour(hex: $0) }

    static func degree(_ index: Int) -> Colour { degrees[((index % 7) + 7) % 7] }
    static func tone(_ index: Int) -> Colour { tones[((index % tones.count) + tones.count) % tones.count] }
    static func lane(_ index: Int) -> Colour { lanes[((index % lanes.count) + lanes.count) % lanes.count] }

    /// Velocity 1…127 on a ramp from cool blue (soft) through yellow to red (hard).
    static func velocity(_ velocity: Int) -> Colour {
        let x = Double(max(1, min(127, velocity)) - 1) / 126
        let soft = Colour(hex: 0x3A86FF), middle = Colour(hex: 0xFFD166), hard = Colour(hex: 0xEF233C)
        return x < 0.5 ? soft.mixed(with: middle, x * 2) : middle.mixed(with: hard, (x - 0.5) * 2)
    }
}
