// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Performance
import Vocabulary

/// The tone catalogs, re-exported for the command line.
public enum ToneCatalog {
    /// Keys tones.
    public static var keys: [Tone] { Tone.keysCatalog }
    /// Bass tones.
    public static var bass: [Tone] { Tone.bassCatalog }
}

