// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Sound
import Text

/// What FluidSynth logged that no error carried (`SoundDiagnostics`): a SoundFont whose
/// samples it ignores, a voice it could not start. Shown after a run so that a session that
/// sounds wrong says why; `--quiet` leaves them out.
public enum SoundWarnings {
    /// Characters of one FluidSynth message shown before it is cut.
    static let limit = 400

    /// One line per distinct message since the last call, in the order first logged, each
    /// `clumsy: warning: fluidsynth: …` with control characters escaped and a count when it
    /// repeated; then one line for the distinct messages past `SoundDiagnostics.capacity`.
    public static func drainLines() -> [String] {
        let dropped = SoundDiagnostics.droppedCount
        var lines = SoundDiagnostics.drainMessages().map { "clumsy: warning: " + Quote.text($0.description, limit: limit) }
        if dropped > 0 { lines.append("clumsy: warning: fluidsynth: \(dropped) more distinct messages not shown") }
        return lines
    }
}
