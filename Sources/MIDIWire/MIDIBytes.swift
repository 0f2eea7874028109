// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// One short MIDI message as it goes on the wire (1…3 bytes), for live ports.
public struct MIDIBytes: Sendable, Hashable {
    /// Status byte.
    public var status: UInt8
    /// First data byte (0 when absent).
    public var data1: UInt8
    /// Second data byte (0 when absent).
    public var data2: UInt8
    /// Number of bytes, 1…3.
    public var count: Int

    /// The message whose first `count` (1…3) of `status`, `data1`, `data2` a port delivered; the
    /// data bytes past `count` are read as 0, so one message has one value.
    public init(status: UInt8, data1: UInt8, data2: UInt8, count: Int) {
        precondition((1...3).contains(count), "a short MIDI message has 1…3 bytes, not \(count)")
        (self.status, self.count) = (status, count)
        self.data1 = count > 1 ? data1 : 0
        self.data2 = count > 2 ? data2 : 0
    }

    /// The message of the first one to three of `bytes` (a longer message, System Exclusive,
    /// cut to them, as the live inputs' three-byte slots hold it), or nil for none.
    public init?(prefixOf bytes: some Collection<UInt8>) {
        guard let status = bytes.first else { return nil }
        let data = Array(bytes.dropFirst().prefix(2))
        self.init(status: status, data1: data.first ?? 0, data2: data.count > 1 ? data[1] : 0, count: 1 + data.count)
    }

    /// A note-on: channel 0…15, note and velocity 0…127.
    public static func noteOn(channel: Int, note: Int, velocity: Int) -> MIDIBytes {
        MIDIBytes(status: 0x90 | UInt8(channel & 15), data1: UInt8(note & 127), data2: UInt8(velocity & 127), count: 3)
    }

    /// A note-off (0x80, release velocity 0).
    public static func noteOff(channel: Int, note: Int) -> MIDIBytes {
        MIDIBytes(status: 0x80 | UInt8(channel & 15), data1: UInt8(note & 127), data2: 0, count: 3)
    }

    /// A control change.
    public static func controlChange(channel: Int, controller: Int, value: Int) -> MIDIBytes {
        MIDIBytes(status: 0xB0 | UInt8(channel & 15), data1: UInt8(controller & 127), data2: UInt8(value & 127), count: 3)
    }

    /// A program change.
    public static func programChange(channel: Int, program: Int) -> MIDIBytes {
        MIDIBytes(status: 0xC0 | UInt8(channel & 15), data1: UInt8(program & 127), data2: 0, count: 2)
    }

    /// MIDI clock pulse (24 per quarter note).
    public static let clock = MIDIBytes(status: 0xF8, data1: 0, data2: 0, count: 1)
    /// MIDI Start.
    public static let start = MIDIBytes(status: 0xFA, data1: 0, data2: 0, count: 1)
    /// MIDI Continue.
    public static let `continue` = MIDIBytes(status: 0xFB, data1: 0, data2: 0, count: 1)
    /// MIDI Stop.
    public static let stop = MIDIBytes(status: 0xFC, data1: 0, data2: 0, count: 1)

    /// The bytes as an array (for tests and logs).
    public var bytes: [UInt8] { Array([status, data1, data2].prefix(count)) }
}

extension MIDIBytes {
    /// What a channel message does, read from its bytes.
    public enum Meaning: Sendable, Hashable {
        /// Note-on with velocity 1…127.
        case noteOn(note: Int, velocity: Int)
        /// Note-off (0x80, or a note-on of velocity 0 as on the wire).
        case noteOff(note: Int)
        /// Control change `controller` 0…127 to `value` 0…127.
        case controlChange(controller: Int, value: Int)
        /// Any other message (program change, system real-time, …).
        case other
    }

    /// The channel of a channel message, 0…15.
    public var channel: Int { Int(status & 0x0F) }

    /// What the message does.
    public var meaning: Meaning {
        switch status & 0xF0 {
        case 0x90 where data2 > 0: return .noteOn(note: Int(data1), velocity: Int(data2))
        case 0x80, 0x90: return .noteOff(note: Int(data1))
        case 0xB0: return .controlChange(controller: Int(data1), value: Int(data2))
        default: return .other
        }
    }
}
