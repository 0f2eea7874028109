// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import MIDIWire

/// One event's content in a Standard MIDI File track: a channel voice
/// message, a system-exclusive packet, or a meta event.
///
/// Units and ranges: channels are 0…15 (shown to musicians as 1…16); notes,
/// velocities, controllers, controller values, programs and pressures are
/// 0…127; pitch bend is 0…16383 with 8192 meaning "no bend".
/// `MIDIFileWriter` checks these ranges with `precondition`.
public enum MIDIMessage: Hashable, Sendable {
    /// Note off (status 0x8n) with release velocity 0…127.
    case noteOff(channel: UInt8, note: UInt8, velocity: UInt8)
    /// Note on (status 0x9n), velocity 0…127. Velocity 0 is kept as a note on
    /// when reading (many files use it to mean note off).
    case noteOn(channel: UInt8, note: UInt8, velocity: UInt8)
    /// Polyphonic key pressure (status 0xAn), pressure 0…127.
    case polyphonicPressure(channel: UInt8, note: UInt8, pressure: UInt8)
    /// Control change (status 0xBn): controller 0…127 set to value 0…127.
    case controlChange(channel: UInt8, controller: UInt8, value: UInt8)
    /// Program change (status 0xCn): program 0…127 (General MIDI program number minus one).
    case programChange(channel: UInt8, program: UInt8)
    /// Channel pressure (status 0xDn), pressure 0…127.
    case channelPressure(channel: UInt8, pressure: UInt8)
    /// Pitch bend (status 0xEn): 14-bit value 0…16383, 8192 = centre.
    case pitchBend(channel: UInt8, value: UInt16)
    /// A complete system-exclusive message (event 0xF0): the 7-bit payload
    /// between the 0xF0 and the terminating 0xF7, both excluded.
    case sysEx([UInt8])
    /// A system-exclusive continuation or escape packet (event 0xF7): raw bytes, written verbatim.
    case sysExEscape([UInt8])
    /// Set tempo meta event (0x51), in microseconds per quarter note
    /// (500000 = 120 beats per minute); 24-bit, at most 0xFFFFFF.
    case tempo(microsecondsPerQuarter: UInt32)
    /// Time signature meta event (0x58): numerator / 2^denominatorPowerOfTwo
    /// (4/4 is 4, 2), MIDI clocks per metronome click (usually 24) and
    /// notated 32nd notes per MIDI quarter note (usually 8).
    case timeSignature(numerator: UInt8, denominatorPowerOfTwo: UInt8, clocksPerClick: UInt8, thirtySecondsPerQuarter: UInt8)
    /// Key signature meta event (0x59): `sharps` sharps (negative: flats), −7…7, and whether
    /// the key is minor (A minor is 0 sharps, minor; E♭ major is −3, major).
    case keySignature(sharps: Int8, minor: Bool)
    /// Text meta event (0x01), UTF-8 encoded.
    case text(String)
    /// Sequence/track name meta event (0x03), UTF-8 encoded.
    case trackName(String)
    /// Marker meta event (0x06), UTF-8 encoded: a named point in time, shown by DAWs in their
    /// marker lane (Clumsy writes one per chord change on the conductor track).
    case marker(String)
    /// End of track meta event (0x2F). The writer adds it automatically.
    case endOfTrack
    /// Any other meta event (type 0x00…0x7F) with its raw data, including
    /// known types whose data is not well formed (e.g. a tempo of the wrong
    /// length, or text that is not valid UTF-8).
    case unknownMeta(type: UInt8, data: [UInt8])

    /// True for meta events (tempo, time and key signature, text, track name, marker, end of track, unknown meta).
    public var isMeta: Bool {
        switch self {
        case .tempo, .timeSignature, .keySignature, .text, .trackName, .marker, .endOfTrack, .unknownMeta: return true
        default: return false
        }
    }

    /// The channel (0…15) of a channel voice message; nil for meta and system-exclusive events.
    public var channel: UInt8? {
        switch self {
        case .noteOff(let channel, _, _), .noteOn(let channel, _, _),
             .polyphonicPressure(let channel, _, _), .controlChange(let channel, _, _),
             .programChange(let channel, _), .channelPressure(let channel, _),
             .pitchBend(let channel, _):
            return channel
        default:
            return nil
        }
    }
}

extension MIDIMessage {
    /// The channel message `bytes` as a file's event: a note-on, note-off (release velocity
    /// kept) or control change; nil for any other message.
    public init?(_ bytes: MIDIBytes) {
        let channel = UInt8(bytes.channel)
        switch bytes.status & 0xF0 {
        case 0x90: self = .noteOn(channel: channel, note: bytes.data1, velocity: bytes.data2)
        case 0x80: self = .noteOff(channel: channel, note: bytes.data1, velocity: bytes.data2)
        case 0xB0: self = .controlChange(channel: channel, controller: bytes.data1, value: bytes.data2)
        default: return nil
        }
    }
}
