// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import MIDIFile
import TestSupport
import Testing

@Suite("Variable-length quantities")
struct VariableLengthQuantityTests {
    static let cases: [(UInt32, [UInt8])] = [
        (0, [0x00]),
        (127, [0x7F]),
        (128, [0x81, 0x00]),
        (8192, [0xC0, 0x00]),
        (16383, [0xFF, 0x7F]),
        (16384, [0x81, 0x80, 0x00]),
        (2_097_151, [0xFF, 0xFF, 0x7F]),
        (2_097_152, [0x81, 0x80, 0x80, 0x00]),
        (0x0FFF_FFFF, [0xFF, 0xFF, 0xFF, 0x7F]),
    ]

    @Test("encodes the edge values as the SMF specification lists them")
    func encode() {
        for (value, bytes) in Self.cases {
            #expect(MIDIVariableLengthQuantity.encode(value) == bytes, "value \(value)")
        }
    }

    @Test("decodes the edge values, also mid-buffer")
    func decode() {
        for (value, bytes) in Self.cases {
            let decoded = MIDIVariableLengthQuantity.decode([0x99] + bytes + [0x42], at: 1)
            #expect(decoded?.value == value)
            #expect(decoded?.length == bytes.count)
        }
    }

    @Test("rejects quantities longer than 4 bytes and truncated ones")
    func decodeFailures() {
        #expect(MIDIVariableLengthQuantity.decode([0x81, 0x80, 0x80, 0x80, 0x00], at: 0) == nil)
        #expect(MIDIVariableLengthQuantity.decode([0x81, 0x80], at: 0) == nil)
        #expect(MIDIVariableLengthQuantity.decode([], at: 0) == nil)
        #expect(MIDIVariableLengthQuantity.decode([0x00], at: 1) == nil)
    }

    @Test("delta times at the edge values survive writing and reading, with the exact bytes on disk")
    func deltaTimesRoundTrip() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("vlq.mid")
        let writer = try MIDIFileWriter(path: path, trackCount: 1, ticksPerQuarter: 96)
        var tick: UInt64 = 0
        var expected: [MIDIEvent] = []
        var expectedTrackBytes: [UInt8] = []
        for (delta, encoded) in Self.cases {
            tick += UInt64(delta)
            let event = MIDIEvent(tick: tick, message: .noteOn(channel: 3, note: 60, velocity: 1))
            try writer.append(event, track: 0)
            expected.append(event)
            expectedTrackBytes += encoded + [0x93, 60, 1]
        }
        try writer.finish()
        expectedTrackBytes += [0x00, 0xFF, 0x2F, 0x00]
        let bytes = try contentsOf(path)
        #expect(Array(bytes[22...]) == expectedTrackBytes)
        let contents = try MIDIFileReader.read(path: path)
        #expect(contents.tracks == [expected + [MIDIEvent(tick: tick, message: .endOfTrack)]])
    }

    @Test("a gap above 0x0FFFFFFF ticks is reported as unrepresentable, and nothing is written")
    func gapTooLarge() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("gap.mid")
        let writer = try MIDIFileWriter(path: path, trackCount: 1)
        try writer.append(.noteOn(channel: 0, note: 1, velocity: 1), atTick: 5, track: 0)
        let error = #expect(throws: MIDIFileError.self) {
            try writer.append(.noteOff(channel: 0, note: 1, velocity: 0), atTick: 5 + 0x1000_0000, track: 0)
        }
        guard case .unrepresentable(let errorPath, _)? = error else {
            Issue.record("expected unrepresentable, got \(String(describing: error))")
            return
        }
        #expect(errorPath == path)
        #expect(throws: error!) { try writer.finish() }
        #expect(directory.entries().isEmpty)
    }
}
