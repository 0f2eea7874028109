// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Testing
@testable import MIDIWire

/// One MIDI message as it goes on the wire: what each constructor writes, and what a message
/// means when it is read back.
@Suite("MIDI bytes")
struct MIDIBytesTests {
    @Test("Channel messages are status | channel, then their data bytes; system real-time messages one byte")
    func bytes() {
        #expect(MIDIBytes.noteOn(channel: 9, note: 36, velocity: 100).bytes == [0x99, 36, 100])
        #expect(MIDIBytes.noteOff(channel: 0, note: 60).bytes == [0x80, 60, 0])
        #expect(MIDIBytes.controlChange(channel: 15, controller: 7, value: 127).bytes == [0xBF, 7, 127])
        #expect(MIDIBytes.programChange(channel: 1, program: 46).bytes == [0xC1, 46])
        #expect([MIDIBytes.clock, .start, .continue, .stop].map(\.bytes) == [[0xF8], [0xFA], [0xFB], [0xFC]])
    }

    @Test("Out-of-range numbers never reach another status: channels wrap to 0…15, data bytes keep 7 bits")
    func masking() {
        for value in [-1, 128, 255, 1000, Int.max, Int.min] {
            let message = MIDIBytes.noteOn(channel: value, note: value, velocity: value)
            #expect(message.status & 0xF0 == 0x90, "\(value)")
            #expect(message.data1 < 128 && message.data2 < 128, "\(value)")
            let change = MIDIBytes.controlChange(channel: value, controller: value, value: value)
            #expect(change.status & 0xF0 == 0xB0 && change.data1 < 128 && change.data2 < 128, "\(value)")
        }
    }

    @Test("What a message means, read from its bytes, on every channel")
    func meaning() {
        for channel in 0..<16 {
            for note in [0, 60, 127] {
                let on = MIDIBytes.noteOn(channel: channel, note: note, velocity: 64)
                #expect(on.meaning == .noteOn(note: note, velocity: 64) && on.channel == channel)
                #expect(MIDIBytes.noteOff(channel: channel, note: note).meaning == .noteOff(note: note))
                // A note-on of velocity 0 is a note-off on the wire.
                #expect(MIDIBytes.noteOn(channel: channel, note: note, velocity: 0).meaning == .noteOff(note: note))
            }
            #expect(MIDIBytes.controlChange(channel: channel, controller: 64, value: 127).meaning == .controlChange(controller: 64, value: 127))
            #expect(MIDIBytes.programChange(channel: channel, program: 3).meaning == .other)
        }
        #expect(MIDIBytes.clock.meaning == .other && MIDIBytes.stop.meaning == .other)
        // Pitch bend and aftertouch are not read as notes.
        #expect(MIDIBytes(status: 0xE0, data1: 0, data2: 64, count: 3).meaning == .other)
        #expect(MIDIBytes(status: 0xA0, data1: 60, data2: 10, count: 3).meaning == .other)
    }

    @Test("A message as an input delivers it: its first one to three bytes, the data past its length read as 0; nothing is no message")
    func fromAnInput() {
        #expect(MIDIBytes(prefixOf: [0x90, 60, 100]) == .noteOn(channel: 0, note: 60, velocity: 100))
        #expect(MIDIBytes(prefixOf: [0xF8]) == .clock)
        #expect(MIDIBytes(prefixOf: [0xF2, 0x10])?.count == 2 && MIDIBytes(prefixOf: [0xF2, 0x10])?.data2 == 0)
        // System Exclusive longer than a short message is cut to its first three bytes, as the ports' slots hold it.
        #expect(MIDIBytes(prefixOf: [0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7])?.bytes == [0xF0, 0x7E, 0x7F])
        #expect(MIDIBytes(prefixOf: [UInt8]()) == nil)
        // A byte past the length is not part of the message: two deliveries of one clock pulse are one value.
        #expect(MIDIBytes(status: 0xF8, data1: 12, data2: 34, count: 1) == .clock)
        #expect(MIDIBytes(status: 0xC3, data1: 5, data2: 99, count: 2) == .programChange(channel: 3, program: 5))
    }
}
