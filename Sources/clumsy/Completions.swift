// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import ArgumentParser
import Live
import Performance
import Presets
import Theory
import Vocabulary

/// What the shell completions offer for an argument: bundled preset names, the values a
/// setting accepts, file names of the right kind. The installed bash script falls back to
/// file names wherever nothing is offered (`complete -o default`, see the Makefile).
enum Completions {
    /// Bundled preset names starting with what is typed; none (so the shell offers files) for a path.
    static let presets = CompletionKind.custom { _, _, prefix in
        PresetLibrary.bundled().map(\.name).filter { $0.hasPrefix(prefix) }
    }

    /// The words a setting flag accepts, where they are a short list.
    static func setting(_ flag: String) -> CompletionKind {
        switch flag {
        case "key": return .list(["C", "C#", "Db", "D", "D#", "Eb", "E", "F", "F#", "Gb", "G", "G#", "Ab", "A", "A#", "Bb", "B"])
        case "mode": return .list(Settings.modeWords)
        case "tone", "melody-tone": return .list(Tone.keysCatalog.map(\.name).sorted())   // --tone is the keys' tone
        case "bass-tone": return .list(Tone.bassCatalog.map(\.name).sorted())
        case "quantize": return .list(Grid.all.map { "\($0)" })
        case "meter": return .list(Meter.all.map { "\($0)" })
        case "chord-change": return .list(["hit", "beat", "bar"])
        case "bit-depth": return .list(["16", "24", "32f"])
        case "loudness", "filter", "delay", "reverb": return .list(["off"])
        default: return .default
        }
    }

    /// The audio drivers this FluidSynth has.
    static let audioDrivers = CompletionKind.custom { _, _, prefix in AudioDrivers.names.filter { $0.hasPrefix(prefix) } }

    /// `--set`: every field of the settings table, as `field=` (the value is typed after it).
    static let fields = CompletionKind.custom { _, _, prefix in Settings.all.map { $0.path + "=" }.filter { $0.hasPrefix(prefix) } }

    /// Files with one of `extensions`.
    static func files(_ extensions: String...) -> CompletionKind { .file(extensions: extensions) }
}
