// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Theory

/// How keys are named wherever one is typed (`--key`, `--mode`, `key.tonic`, `key.scale`, a scene's
/// or a live key change), for the messages that say what is accepted.
public enum KeyNames {
    /// The tonics accepted, for messages.
    public static let acceptedTonics = "C, C#/Db, D, D#/Eb, E, F, F#/Gb, G, G#/Ab, A, A#/Bb, B (♯ and ♭ also accepted)"
    /// Every name `--mode` and `key.scale` take, for "did you mean".
    public static var modeNames: [String] { Scale.all.map(\.displayName) + Scale.catalogNames + ["ionian", "aeolian"] }
    /// The modes `--mode` and a live key change accept, for their error messages.
    public static var acceptedModes: String { Scale.all.map(\.displayName).joined(separator: ", ") + " (also ionian, aeolian)" }
}
