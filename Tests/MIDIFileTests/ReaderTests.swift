// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import MIDIFile
import TestSupport
import Testing

/// Builds a file from a header and raw track bodies, by hand.
func handMadeFile(format: UInt16 = 0, division: UInt16 = 96, declaredTracks: UInt16? = nil, tracks: [[UInt8]]) -> [UInt8] {
    func be32(_ value: Int) -> [UInt8] { [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    let count = declaredTracks ?? UInt16(tracks.count)
    var bytes: [UInt8] = [0x4D, 0x54, 0x68, 0x64] + be32(6)
    bytes += [UInt8(format >> 8), UInt8(format & 0xFF), UInt8(count >> 8), UInt8(count & 0xFF), UInt8(division >> 8), UInt8(division & 0xFF)]
    for body in tracks { bytes += [0x4D, 0x54, 0x72, 0x6B] + be32(body.count) + body }
    return bytes
}

@Suite("Reader")
struct ReaderTests {
    @Test("running status continues channel messages, across meta events too; note on velocity 0 stays note on")
    func runningStatus() throws {
        let track: [UInt8] = [
            0x00, 0x90, 0x3C, 0x40,       // tick 0   note on 60 vel 64
            0x60, 0x3E, 0x40,             // tick 96  (running) note on 62
            0x00, 0x3C, 0x00,             // tick 96  (running) note on 60 vel 0
            0x00, 0xFF, 0x01, 0x01, 0x41, // tick 96  text "A"
            0x10, 0x3E, 0x00,             // tick 112 (running after meta) note on 62 vel 0
            0x00, 0xB2, 0x07, 0x64,       // tick 112 CC ch2 7 = 100
            0x00, 0x0A, 0x40,             // tick 112 (running) CC ch2 10 = 64
            0x00, 0xC5, 0x05,             // tick 112 program ch5 = 5
            0x81, 0x00, 0x06,             // tick 240 (running) program ch5 = 6
            0x00, 0xEF, 0x00, 0x40,       // tick 240 pitch bend ch15 = 8192
            0x00, 0x7F, 0x7F,             // tick 240 (running) pitch bend = 16383
            0x00, 0xFF, 0x2F, 0x00,       // tick 240 end of track
        ]
        let contents = try MIDIFileReader.parse(handMadeFile(tracks: [track]))
        #expect(contents.format == 0)
        #expect(contents.ticksPerQuarter == 96)
        #expect(contents.tracks == [[
            MIDIEvent(tick: 0, message: .noteOn(channel: 0, note: 60, velocity: 64)),
            MIDIEvent(tick: 96, message: .noteOn(channel: 0, note: 62, velocity: 64)),
            MIDIEvent(tick: 96, message: .noteOn(channel: 0, note: 60, velocity: 0)),
            MIDIEvent(tick: 96, message: .text("A")),
            MIDIEvent(tick: 112, message: .noteOn(channel: 0, note: 62, velocity: 0)),
            MIDIEvent(tick: 112, message: .controlChange(channel: 2, controller: 7, value: 100)),
            MIDIEvent(tick: 112, message: .controlChange(channel: 2, controller: 10, value: 64)),
            MIDIEvent(tick: 112, message: .programChange(channel: 5, program: 5)),
            MIDIEvent(tick: 240, message: .programChange(channel: 5, program: 6)),
            MIDIEvent(tick: 240, message: .pitchBend(channel: 15, value: 8192)),
            MIDIEvent(tick: 240, message: .pitchBend(channel: 15, value: 16383)),
            MIDIEvent(tick: 240, message: .endOfTrack),
        ]])
    }

    @Test("a data byte with no running status in effect is malformed, with its offset")
    func dataByteWithoutStatus() {
        let bytes = handMadeFile(tracks: [[0x00, 0x3C, 0x40, 0x00, 0xFF, 0x2F, 0x00]])
        #expect(throws: MIDIFileError.malformed(path: "<bytes>", offset: 23,
                                                reason: "data byte 0x3C where a status byte is needed (no running status in effect)")) {
            try MIDIFileReader.parse(bytes)
        }
    }

    @Test("system exclusive events, unknown chunks, longer headers and odd metas")
    func assortedStructures() throws {
        var bytes: [UInt8] = [0x4D, 0x54, 0x68, 0x64, 0, 0, 0, 8, 0, 1, 0, 2, 0x01, 0xE0, 0xAA, 0xBB] // 8-byte header
        bytes += [0x58, 0x46, 0x49, 0x48, 0, 0, 0, 3, 1, 2, 3]                                         // unknown chunk "XFIH"
        let track1: [UInt8] = [
            0x00, 0xF0, 0x05, 0x7E, 0x7F, 0x09, 0x01, 0xF7, // sysex, terminated
            0x00, 0xF7, 0x02, 0xF3, 0x01,                   // escape packet
            0x00, 0xFF, 0x51, 0x02, 0x07, 0xA1,             // tempo of the wrong length
            0x00, 0xFF, 0x03, 0x02, 0xC3, 0x28,             // track name that is not UTF-8
            0x00, 0xFF, 0x03, 0x03, 0x4B, 0xC3, 0xA9,       // track name "Ké"
            0x00, 0xA1, 0x3C, 0x10,                         // poly pressure
            0x00, 0xD1, 0x22,                               // channel pressure
            0x05, 0xFF, 0x2F, 0x00,                         // end of track at tick 5
            0x00, 0x90, 0x3C, 0x40,                         // ignored: after end of track
        ]
        bytes += [0x4D, 0x54, 0x72, 0x6B, 0, 0, 0, UInt8(track1.count)] + track1
        let track2: [UInt8] = [0x00, 0x80, 0x3C, 0x00] // no end of track: accepted as is
        bytes += [0x4D, 0x54, 0x72, 0x6B, 0, 0, 0, UInt8(track2.count)] + track2
        bytes += [0x4A, 0x55, 0x4E, 0x4B, 0, 0, 0, 0] // trailing unknown chunk

        let contents = try MIDIFileReader.parse(bytes)
        #expect(contents.format == 1)
        #expect(contents.ticksPerQuarter == 480)
        #expect(contents.tracks == [
            [
                MIDIEvent(tick: 0, message: .sysEx([0x7E, 0x7F, 0x09, 0x01])),
                MIDIEvent(tick: 0, message: .sysExEscape([0xF3, 0x01])),
                MIDIEvent(tick: 0, message: .unknownMeta(type: 0x51, data: [0x07, 0xA1])),
                MIDIEvent(tick: 0, message: .unknownMeta(type: 0x03, data: [0xC3, 0x28])),
                MIDIEvent(tick: 0, message: .trackName("Ké")),
                MIDIEvent(tick: 0, message: .polyphonicPressure(channel: 1, note: 60, pressure: 16)),
                MIDIEvent(tick: 0, message: .channelPressure(channel: 1, pressure: 0x22)),
                MIDIEvent(tick: 5, message: .endOfTrack),
            ],
            [MIDIEvent(tick: 0, message: .noteOff(channel: 0, note: 60, velocity: 0))],
        ])
        #expect(contents.trackName(at: 0) == "Ké")
        #expect(contents.eventCount == 9)
    }

    @Test("specific malformations are reported with what went wrong")
    func malformations() {
        func reason(_ bytes: [UInt8]) -> String? {
            do {
                _ = try MIDIFileReader.parse(bytes)
                return nil
            } catch {
                guard case .malformed(let path, _, let reason) = error else { return "\(error)" }
                #expect(path == "<bytes>")
                return reason
            }
        }
        #expect(reason([]) == "the file does not start with an 'MThd' header chunk")
        #expect(reason(Array("RIFF....WAVE".utf8)) == "the file does not start with an 'MThd' header chunk")
        #expect(reason(handMadeFile(tracks: [[0x81, 0x80, 0x80, 0x80, 0x00, 0xFF, 0x2F, 0x00]])) == "delta time is longer than 4 bytes")
        #expect(reason(handMadeFile(tracks: [[0x00, 0x90, 0x3C, 0x80]])) == "byte 0x80 where a channel message data byte (0...127) is needed")
        #expect(reason(handMadeFile(tracks: [[0x00, 0xF1, 0x00]])) == "status byte 0xF1 is not allowed in a MIDI file")
        #expect(reason(handMadeFile(tracks: [[0x00, 0xFF, 0x01, 0x05, 0x41]])) == "meta event data of 5 bytes runs past the end of the track")
        #expect(reason(handMadeFile(tracks: [[0x00, 0x90, 0x3C]])) == "the track ends inside a channel message")
        #expect(reason(handMadeFile(tracks: [[0x00]])) == "the track ends after a delta time, without an event")
        #expect(reason(handMadeFile(declaredTracks: 2, tracks: [[0x00, 0xFF, 0x2F, 0x00]])) == "the header declares 2 tracks but the data ends after 1")
        #expect(reason(handMadeFile(format: 3, tracks: [])) == "unknown format 3; only 0, 1 and 2 exist")
        #expect(reason(handMadeFile(division: 0, tracks: [])) == "ticks per quarter note is 0")
        #expect(throws: MIDIFileError.unsupported(path: "<bytes>", reason: "SMPTE time division (0xe728) is not supported; only ticks per quarter note")) {
            try MIDIFileReader.parse(handMadeFile(division: 0xE728, tracks: []))
        }
    }

    @Test("every truncation of valid files throws instead of crashing")
    func truncations() throws {
        let directory = try TemporaryDirectory()
        var files = [try goldenBytes("small.mid")]
        for seed in 0..<3 {
            files.append(try RandomScore(seed: 1000 + UInt64(seed), maxEventsPerTrack: 60).write(to: directory.file("\(seed).mid")))
        }
        var cases = 0
        for file in files {
            #expect(throws: Never.self) { try MIDIFileReader.parse(file) }
            for length in 0..<file.count {
                #expect(throws: MIDIFileError.self) { try MIDIFileReader.parse(Array(file[0..<length])) }
                cases += 1
            }
        }
        #expect(cases > 1000)
    }

    @Test("random garbage throws; random corruption of valid files never crashes or hangs")
    func garbage() throws {
        var random = SeededGenerator(seed: 7)
        for _ in 0..<3000 {
            let garbage = (0..<Int.random(in: 0...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            #expect(throws: MIDIFileError.self) { try MIDIFileReader.parse(garbage) }
        }
        // Garbage behind a valid header and track chunk header reaches the event parser.
        for _ in 0..<3000 {
            let body = (0..<Int.random(in: 0...200, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            _ = try? MIDIFileReader.parse(handMadeFile(tracks: [body]))
        }
        // Bit flips and byte changes in a valid file: any outcome but a crash is fine.
        let golden = try goldenBytes("small.mid")
        for _ in 0..<3000 {
            var corrupt = golden
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let index = Int.random(in: 0..<corrupt.count, using: &random)
                corrupt[index] = random.next() % 3 == 0 ? UInt8.random(in: 0...255, using: &random) : corrupt[index] ^ (1 << UInt8.random(in: 0...7, using: &random))
            }
            _ = try? MIDIFileReader.parse(corrupt)
        }
        // Huge declared lengths must not allocate or loop.
        var huge = handMadeFile(tracks: [[0x00, 0xFF, 0x01, 0x8F, 0xFF, 0xFF, 0x7F]])
        #expect(throws: MIDIFileError.self) { try MIDIFileReader.parse(huge) }
        huge = handMadeFile(declaredTracks: 0xFFFF, tracks: [])
        huge += [0x4D, 0x54, 0x72, 0x6B, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(throws: MIDIFileError.self) { try MIDIFileReader.parse(huge) }
    }

    @Test("reading a missing file is cannotRead with the OS error text")
    func missingFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("absent.mid")
        let error = #expect(throws: MIDIFileError.self) { try MIDIFileReader.read(path: path) }
        #expect(error == .cannotRead(path: path, reason: "No such file or directory"))
        #expect(error?.description == "cannot read MIDI file '\(path)': No such file or directory")
    }

    @Test("malformed files on disk are reported with their path")
    func malformedFileOnDisk() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("bad.mid")
        try writeDirectly(Array("not midi".utf8), to: path)
        let error = #expect(throws: MIDIFileError.self) { try MIDIFileReader.read(path: path) }
        #expect(error?.description == "malformed MIDI file '\(path)' at byte offset 0: the file does not start with an 'MThd' header chunk")
    }
}
