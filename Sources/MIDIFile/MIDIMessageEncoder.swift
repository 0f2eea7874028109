// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// Encodes messages to Standard MIDI File event bytes (without the delta
/// time). Always writes full status bytes: no running status, so the output
/// is simple and deterministic. Out-of-range fields are programmer errors
/// and stop the program with a `precondition` failure.
enum MIDIMessageEncoder {
    /// Appends the event bytes of `message` to `bytes`. `endOfTrack` is encoded as FF 2F 00.
    static func encode(_ message: MIDIMessage, into bytes: inout [UInt8]) {
        switch message {
        case .noteOff(let channel, let note, let velocity):
            appendChannel(0x80, channel, note, velocity, into: &bytes)
        case .noteOn(let channel, let note, let velocity):
            appendChannel(0x90, channel, note, velocity, into: &bytes)
        case .polyphonicPressure(let channel, let note, let pressure):
            appendChannel(0xA0, channel, note, pressure, into: &bytes)
        case .controlChange(let channel, let controller, let value):
            appendChannel(0xB0, channel, controller, value, into: &bytes)
        case .programChange(let channel, let program):
            appendChannel(0xC0, channel, [program], into: &bytes)
        case .channelPressure(let channel, let pressure):
            appendChannel(0xD0, channel, [pressure], into: &bytes)
        case .pitchBend(let channel, let value):
            precondition(value <= 0x3FFF, "pitch bend \(value) is outside 0...16383")
            appendChannel(0xE0, channel, [UInt8(value & 0x7F), UInt8(value >> 7)], into: &bytes)
        case .sysEx(let payload):
            precondition(payload.allSatisfy { $0 < 0x80 }, "system-exclusive payload bytes must be 0...127")
            bytes.append(0xF0)
            appendLength(payload.count + 1, into: &bytes)
            bytes.append(contentsOf: payload)
            bytes.append(0xF7)
        case .sysExEscape(let raw):
            bytes.append(0xF7)
            appendLength(raw.count, into: &bytes)
            bytes.append(contentsOf: raw)
        case .tempo(let microseconds):
            precondition(microseconds > 0 && microseconds <= 0xFF_FFFF,
                         "tempo \(microseconds) µs per quarter is outside 1...16777215")
            appendMeta(0x51, [UInt8(truncatingIfNeeded: microseconds >> 16),
                              UInt8(truncatingIfNeeded: microseconds >> 8),
                              UInt8(truncatingIfNeeded: microseconds)], into: &bytes)
        case .timeSignature(let numerator, let denominatorPower, let clocks, let thirtySeconds):
            appendMeta(0x58, [numerator, denominatorPower, clocks, thirtySeconds], into: &bytes)
        case .keySignature(let sharps, let minor):
            precondition((-7...7).contains(sharps), "a key signature of \(sharps) sharps is outside -7...7")
            appendMeta(0x59, [UInt8(bitPattern: sharps), minor ? 1 : 0], into: &bytes)
        case .text(let text):
            appendMeta(0x01, Array(text.utf8), into: &bytes)
        case .trackName(let name):
            appendMeta(0x03, Array(name.utf8), into: &bytes)
        case .marker(let text):
            appendMeta(0x06, Array(text.utf8), into: &bytes)
        case .endOfTrack:
            appendMeta(0x2F, [], into: &bytes)
        case .unknownMeta(let type, let data):
            precondition(type < 0x80, "meta event type 0x\(String(type, radix: 16)) is outside 0x00...0x7F")
            precondition(type != 0x2F, "write end of track as .endOfTrack, not as unknownMeta")
            appendMeta(type, data, into: &bytes)
        }
    }

    /// A two-byte channel message (note off and on, pressure, control change): the most common
    /// by far, written without an array for its data.
    private static func appendChannel(_ status: UInt8, _ channel: UInt8, _ first: UInt8, _ second: UInt8, into bytes: inout [UInt8]) {
        precondition(channel < 16, "MIDI channel \(channel) is outside 0...15")
        precondition(first < 0x80, "MIDI data value \(first) is outside 0...127")
        precondition(second < 0x80, "MIDI data value \(second) is outside 0...127")
        bytes.append(status | channel)
        bytes.append(first)
        bytes.append(second)
    }

    private static func appendChannel(_ status: UInt8, _ channel: UInt8, _ data: [UInt8], into bytes: inout [UInt8]) {
        precondition(channel < 16, "MIDI channel \(channel) is outside 0...15")
        bytes.append(status | channel)
        for byte in data {
            precondition(byte < 0x80, "MIDI data value \(byte) is outside 0...127")
            bytes.append(byte)
        }
    }

    private static func appendMeta(_ type: UInt8, _ data: [UInt8], into bytes: inout [UInt8]) {
        bytes.append(0xFF)
        bytes.append(type)
        appendLength(data.count, into: &bytes)
        bytes.append(contentsOf: data)
    }

    private static func appendLength(_ count: Int, into bytes: inout [UInt8]) {
        precondition(count <= Int(MIDIVariableLengthQuantity.maximum), "event data of \(count) bytes is too long for a MIDI file")
        MIDIVariableLengthQuantity.encode(UInt32(count), into: &bytes)
    }
}
