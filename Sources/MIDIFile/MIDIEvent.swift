// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// A MIDI message at an absolute time, in ticks (pulses) from the start of
/// its track. Seconds follow from the file's ticks per quarter note and its
/// tempo map (see `MIDITempoMap`).
public struct MIDIEvent: Hashable, Sendable {
    /// Absolute time in ticks from the start of the track.
    public var tick: UInt64
    /// What happens at that time.
    public var message: MIDIMessage

    /// Creates an event at `tick` (absolute ticks from the start of the track).
    public init(tick: UInt64, message: MIDIMessage) {
        self.tick = tick
        self.message = message
    }
}
