// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import MIDIWire

/// A MIDI output that sends messages at a time: a JACK client or an ALSA sequencer client.
public protocol LiveMIDIPort: AnyObject {
    /// Port names in index order (`bass`, `keys`, …, `clock`).
    var portNames: [String] { get }
    /// Queues `message` on port `port` to sound `seconds` after the session's origin.
    /// Returns false when the connection has gone away.
    func send(_ message: MIDIBytes, port: Int, at seconds: Double) -> Bool
    /// Waits until session time `seconds` is due (minus the port's lead), or returns at once
    /// when the connection has gone away or `shouldStop()` says so.
    func wait(until seconds: Double, shouldStop: () -> Bool)
    /// True once the server or device has gone away.
    var isGone: Bool { get }
    /// Sends everything still queued (waiting at most `timeout` seconds), then closes.
    func close(timeout: Double)
    /// One line describing lateness and drops, or nil when every event went out on time.
    var deliveryReport: String? { get }
}
