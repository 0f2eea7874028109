// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// What one track of a MIDI file holds.
public struct TrackSummary: Sendable, Hashable {
    /// Track index, 0-based in file order.
    public var index: Int
    /// Its track name meta event, if any.
    public var name: String?
    /// Notes sounded in it.
    public var noteCount: Int
    /// MIDI channels (0…15) its notes use, ascending.
    public var channels: [Int]
    /// Lowest and highest MIDI note, or nil without notes.
    public var range: ClosedRange<Int>?

    /// Creates a summary.
    public init(index: Int, name: String?, noteCount: Int, channels: [Int], range: ClosedRange<Int>?) {
        self.index = index
        self.name = name
        self.noteCount = noteCount
        self.channels = channels
        self.range = range
    }
}
