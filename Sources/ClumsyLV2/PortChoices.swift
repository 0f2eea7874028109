// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Theory
import Vocabulary

/// The enumerated ports' choices, in the order of their values (0 first): one list read by the
/// engine and, through `clumsy_port_choices`, by Tools/lv2bundle.py for the Turtle's scale points.
enum PortChoices {
    /// Tonics C…B as `--key` reads them (flats for the black keys, F♯ for F#).
    static let tonics = ["C", "Db", "D", "Eb", "E", "F", "F#", "G", "Ab", "A", "Bb", "B"]
    /// The catalog's modes as `--mode` reads them.
    static let modes = Scale.catalogNames
    /// The grids as `--quantize` reads them, `off` first.
    static let grids = Grid.all.map(\.description)

    /// The choices of `port`, one a line (nil for a port without choices).
    static func text(of port: String) -> String? {
        switch port {
        case "key": return tonics.joined(separator: "\n") + "\n"
        case "mode": return modes.joined(separator: "\n") + "\n"
        case "quantize": return grids.joined(separator: "\n") + "\n"
        default: return nil
        }
    }
}
