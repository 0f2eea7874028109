// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import Performance
import Sound
import Vocabulary

/// The tone catalogs, re-exported for the command line.
public enum ToneCatalog {
    /// Keys tones.
    public static var keys: [Tone] { Tone.keysCatalog }
    /// Bass tones.
    public static var bass: [Tone] { Tone.bassCatalog }

    /// The presets of the SoundFont at `path` as `bank:program` and name, sorted.
    /// - Throws: the SoundFont's problem (66 when missing, 65 when it is not one).
    public static func soundFontPresets(_ path: String) throws(SessionError) -> [(tone: String, name: String)] {
        do {
            return try SoundFontPresets.read(path).map { ("\($0.bank):\($0.program)", $0.name) }
        } catch {
            throw SessionError(error)
        }
    }
}

