// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// A parsed Standard MIDI File: header fields and every track's events
/// with absolute ticks, in file order.
public struct MIDIFileContents: Sendable, Equatable {
    /// SMF format: 0 (one track), 1 (simultaneous tracks) or 2 (independent sequences).
    public var format: UInt16
    /// Time resolution in ticks per quarter note.
    public var ticksPerQuarter: UInt16
    /// Each track's events in file order, ticks absolute from the track's start.
    public var tracks: [[MIDIEvent]]

    /// Creates contents from header fields and tracks (ticks absolute).
    public init(format: UInt16, ticksPerQuarter: UInt16, tracks: [[MIDIEvent]]) {
        self.format = format
        self.ticksPerQuarter = ticksPerQuarter
        self.tracks = tracks
    }

    /// The first track name meta event of track `index` (0-based), or nil if
    /// it has none or the index is out of range.
    public func trackName(at index: Int) -> String? {
        guard tracks.indices.contains(index) else { return nil }
        for event in tracks[index] {
            if case .trackName(let name) = event.message { return name }
        }
        return nil
    }

    /// The tempo map formed by the tempo events of track 0 (the conductor
    /// track in format 0 and 1 files); 120 beats per minute if it has none.
    public var tempoMap: MIDITempoMap {
        MIDITempoMap(ticksPerQuarter: ticksPerQuarter, events: tracks.first ?? [])
    }

    /// Time in seconds from the start of the file at `tick`, following the
    /// tempo changes in track 0. Builds the tempo map on every call; for
    /// many look-ups use `tempoMap` once.
    public func seconds(atTick tick: UInt64) -> Double {
        tempoMap.seconds(atTick: tick)
    }

    /// Total number of events in all tracks (including End of Track events).
    public var eventCount: Int {
        tracks.reduce(0) { $0 + $1.count }
    }
}
