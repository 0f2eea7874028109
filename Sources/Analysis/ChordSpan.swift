// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Theory

/// A stretch of a MIDI file over which one chord (or no chord) sounds.
public struct ChordSpan: Sendable, Hashable {
    /// First tick of the span.
    public var startTick: UInt64
    /// Tick just after the span.
    public var endTick: UInt64
    /// Start in seconds from the beginning of the file (following its tempo changes).
    public var start: Double
    /// End in seconds.
    public var end: Double
    /// The chord named from the notes sounding, or nil when no chord sounds ("N.C.").
    public var identification: ChordIdentification?

    /// Creates a span.
    public init(startTick: UInt64, endTick: UInt64, start: Double, end: Double, identification: ChordIdentification?) {
        self.startTick = startTick
        self.endTick = endTick
        self.start = start
        self.end = end
        self.identification = identification
    }

    /// Length in seconds.
    public var duration: Double { end - start }

    /// The chord symbol spelled in `key` with a slash bass when not in root position, or "N.C.".
    public func symbol(in key: Key, style: SpellingStyle = .unicode) -> String {
        identification?.symbol(in: key, style: style) ?? "N.C."
    }

    /// The chord's Roman numeral in `key` (triad level), or "N.C.".
    public func numeral(in key: Key, style: SpellingStyle = .unicode) -> String {
        identification.map { key.romanNumeral(for: $0.chord, style: style) } ?? "N.C."
    }
}
