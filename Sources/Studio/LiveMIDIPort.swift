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

/// A MIDI input the session reads at its steps (`--clock-in`, `--midi-in`): a JACK client or
/// an ALSA sequencer client. Each message carries the time it arrived, in the input's own
/// frames (JACK's frame counter; an ALSA queue's microseconds), 32 bits wide and wrapping.
public protocol LiveMIDIInput: AnyObject {
    /// The input port's full name, to connect a controller or a master to.
    var portName: String { get }
    /// The messages received since the last call, oldest first, each with its arrival frame.
    func takeTimed() -> [(frame: UInt32, message: MIDIBytes)]
    /// The input's frame now.
    var frameTime: UInt32 { get }
    /// Frames per second.
    var sampleRate: Double { get }
    /// True once the server or sequencer went away.
    var isGone: Bool { get }
    /// Stops listening. Idempotent.
    func close()
}

extension LiveMIDIInput {
    /// The messages received since the last call, oldest first.
    public func take() -> [MIDIBytes] { takeTimed().map(\.message) }
}
