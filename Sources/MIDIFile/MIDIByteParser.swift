// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import FileOutput

/// The cursor-based parser behind `MIDIFileReader`. Every read is bounds
/// checked and every loop consumes at least one byte, so any input either
/// parses or throws `.malformed`.
struct MIDIByteParser {
    let bytes: [UInt8]
    let source: String
    private var offset = 0

    init(bytes: [UInt8], source: String) {
        self.bytes = bytes
        self.source = source
    }

    mutating func parseFile() throws(MIDIFileError) -> MIDIFileContents {
        guard bytes.count >= 4, bytes[0] == 0x4D, bytes[1] == 0x54, bytes[2] == 0x68, bytes[3] == 0x64 else {
            throw malformed(at: 0, "the file does not start with an 'MThd' header chunk")
        }
        offset = 4
        let headerLength = Int(try readUInt32("header chunk length"))
        guard headerLength >= 6 else {
            throw malformed(at: 4, "the header chunk is \(headerLength) bytes long; at least 6 are needed")
        }
        guard headerLength <= bytes.count - offset else {
            throw malformed(at: 4, "the header chunk length \(headerLength) runs past the end of the data")
        }
        let headerEnd = offset + headerLength
        let format = try readUInt16("format")
        let declaredTracks = Int(try readUInt16("track count"))
        let divisionOffset = offset
        let division = try readUInt16("time division")
        offset = headerEnd
        guard format <= 2 else {
            throw malformed(at: 8, "unknown format \(format); only 0, 1 and 2 exist")
        }
        if division & 0x8000 != 0 {
            throw MIDIFileError.unsupported(path: source, reason: "SMPTE time division (0x\(String(division, radix: 16))) is not supported; only ticks per quarter note")
        }
        guard division > 0 else {
            throw malformed(at: divisionOffset, "ticks per quarter note is 0")
        }

        var tracks: [[MIDIEvent]] = []
        tracks.reserveCapacity(min(declaredTracks, 1024))
        while tracks.count < declaredTracks {
            // A big file takes a while: a stop signal ends the reading (the caller exits 128 + signal).
            if StopSignal.process.isRaised { throw MIDIFileError.cannotRead(path: source, reason: "stopped by a signal") }
            guard bytes.count - offset >= 8 else {
                throw malformed(at: offset, "the header declares \(declaredTracks) tracks but the data ends after \(tracks.count)")
            }
            let chunkStart = offset
            let isTrack = bytes[offset] == 0x4D && bytes[offset + 1] == 0x54 && bytes[offset + 2] == 0x72 && bytes[offset + 3] == 0x6B
            offset += 4
            let length = Int(try readUInt32("chunk length"))
            guard length <= bytes.count - offset else {
                throw malformed(at: chunkStart + 4, "the \(isTrack ? "track" : "unknown") chunk length \(length) runs past the end of the data")
            }
            let end = offset + length
            if isTrack {
                tracks.append(try parseTrack(end: end))
            }
            offset = end
        }
        return MIDIFileContents(format: format, ticksPerQuarter: division, tracks: tracks)
    }

    private mutating func parseTrack(end: Int) throws(MIDIFileError) -> [MIDIEvent] {
        var events: [MIDIEvent] = []
        var tick: UInt64 = 0
        var runningStatus: UInt8? = nil
        while offset < end {
            let delta = try readVLQ(end: end, what: "delta time")
            tick += UInt64(delta)
            guard offset < end else {
                throw malformed(at: offset, "the track ends after a delta time, without an event")
            }
            let statusOffset = offset
            var status = bytes[offset]
            if status < 0x80 {
                guard let running = runningStatus else {
                    throw malformed(at: offset, "data byte 0x\(hex(status)) where a status byte is needed (no running status in effect)")
                }
                status = running
            } else {
                offset += 1
            }
            let message: MIDIMessage
            switch status {
            case 0x80...0xEF:
                runningStatus = status
                message = try parseChannelMessage(status: status, end: end)
            case 0xF0:
                let length = Int(try readVLQ(end: end, what: "system-exclusive length"))
                var payload = try readBytes(length, end: end, what: "system-exclusive data")
                if payload.last == 0xF7 { payload.removeLast() }
                message = .sysEx(payload)
            case 0xF7:
                let length = Int(try readVLQ(end: end, what: "system-exclusive escape length"))
                message = .sysExEscape(try readBytes(length, end: end, what: "system-exclusive escape data"))
            case 0xFF:
                guard offset < end else {
                    throw malformed(at: offset, "the track ends inside a meta event")
                }
                let type = bytes[offset]
                offset += 1
                guard type < 0x80 else {
                    throw malformed(at: offset - 1, "meta event type 0x\(hex(type)) has its high bit set")
                }
                let length = Int(try readVLQ(end: end, what: "meta event length"))
                let data = try readBytes(length, end: end, what: "meta event data")
                message = MIDIByteParser.metaMessage(type: type, data: data)
            default:
                throw malformed(at: statusOffset, "status byte 0x\(hex(status)) is not allowed in a MIDI file")
            }
            events.append(MIDIEvent(tick: tick, message: message))
            if message == .endOfTrack { break }
        }
        return events
    }

    private mutating func parseChannelMessage(status: UInt8, end: Int) throws(MIDIFileError) -> MIDIMessage {
        let channel = status & 0x0F
        let kind = status & 0xF0
        let first = try readDataByte(end: end)
        switch kind {
        case 0xC0: return .programChange(channel: channel, program: first)
        case 0xD0: return .channelPressure(channel: channel, pressure: first)
        default: break
        }
        let second = try readDataByte(end: end)
        switch kind {
        case 0x80: return .noteOff(channel: channel, note: first, velocity: second)
        case 0x90: return .noteOn(channel: channel, note: first, velocity: second)
        case 0xA0: return .polyphonicPressure(channel: channel, note: first, pressure: second)
        case 0xB0: return .controlChange(channel: channel, controller: first, value: second)
        default: return .pitchBend(channel: channel, value: UInt16(first) | UInt16(second) << 7)
        }
    }

    static func metaMessage(type: UInt8, data: [UInt8]) -> MIDIMessage {
        switch type {
        case 0x01:
            if let text = String(validating: data, as: UTF8.self) { return .text(text) }
        case 0x03:
            if let name = String(validating: data, as: UTF8.self) { return .trackName(name) }
        case 0x06:
            if let text = String(validating: data, as: UTF8.self) { return .marker(text) }
        case 0x2F:
            return .endOfTrack
        case 0x51 where data.count == 3:
            return .tempo(microsecondsPerQuarter: UInt32(data[0]) << 16 | UInt32(data[1]) << 8 | UInt32(data[2]))
        case 0x58 where data.count == 4:
            return .timeSignature(numerator: data[0], denominatorPowerOfTwo: data[1],
                                  clocksPerClick: data[2], thirtySecondsPerQuarter: data[3])
        case 0x59 where data.count == 2 && (-7...7).contains(Int8(bitPattern: data[0])) && data[1] <= 1:
            return .keySignature(sharps: Int8(bitPattern: data[0]), minor: data[1] == 1)
        default:
            break
        }
        return .unknownMeta(type: type, data: data)
    }

    private mutating func readDataByte(end: Int) throws(MIDIFileError) -> UInt8 {
        guard offset < end else {
            throw malformed(at: offset, "the track ends inside a channel message")
        }
        let byte = bytes[offset]
        guard byte < 0x80 else {
            throw malformed(at: offset, "byte 0x\(hex(byte)) where a channel message data byte (0...127) is needed")
        }
        offset += 1
        return byte
    }

    private mutating func readBytes(_ count: Int, end: Int, what: String) throws(MIDIFileError) -> [UInt8] {
        guard count <= end - offset else {
            throw malformed(at: offset, "\(what) of \(count) bytes runs past the end of the track")
        }
        let slice = Array(bytes[offset..<offset + count])
        offset += count
        return slice
    }

    private mutating func readVLQ(end: Int, what: String) throws(MIDIFileError) -> UInt32 {
        var value: UInt32 = 0
        for index in 0..<4 {
            guard offset < end else {
                throw malformed(at: offset, "the track ends inside a \(what)")
            }
            let byte = bytes[offset]
            offset += 1
            value = value << 7 | UInt32(byte & 0x7F)
            if byte & 0x80 == 0 { return value }
            if index == 3 {
                throw malformed(at: offset - 4, "\(what) is longer than 4 bytes")
            }
        }
        return value
    }

    private mutating func readUInt32(_ what: String) throws(MIDIFileError) -> UInt32 {
        guard bytes.count - offset >= 4 else {
            throw malformed(at: offset, "the data ends inside the \(what)")
        }
        let value = UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
        offset += 4
        return value
    }

    private mutating func readUInt16(_ what: String) throws(MIDIFileError) -> UInt16 {
        guard bytes.count - offset >= 2 else {
            throw malformed(at: offset, "the data ends inside the \(what)")
        }
        let value = UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
        offset += 2
        return value
    }

    private func malformed(at position: Int, _ reason: String) -> MIDIFileError {
        .malformed(path: source, offset: position, reason: reason)
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }
}
