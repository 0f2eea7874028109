// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import MIDIWire
import Testing
@testable import Studio

@Suite struct MIDIBytesTests {
    @Test func shortMessagesAreEncodedOnTheWire() {
        #expect(MIDIBytes.noteOn(channel: 1, note: 60, velocity: 100).bytes == [0x91, 60, 100])
        #expect(MIDIBytes.noteOff(channel: 0, note: 48).bytes == [0x80, 48, 0])
        #expect(MIDIBytes.controlChange(channel: 9, controller: 7, value: 127).bytes == [0xB9, 7, 127])
        #expect(MIDIBytes.programChange(channel: 2, program: 12).bytes == [0xC2, 12])
        #expect(MIDIBytes.clock.bytes == [0xF8] && MIDIBytes.start.bytes == [0xFA] && MIDIBytes.stop.bytes == [0xFC])
    }

    @Test func aMessageReadsBackAsWhatItDoes() {
        #expect(MIDIBytes.noteOn(channel: 3, note: 64, velocity: 90).meaning == .noteOn(note: 64, velocity: 90))
        #expect(MIDIBytes.noteOn(channel: 3, note: 64, velocity: 90).channel == 3)
        // A note-on of velocity 0 is a note-off, as on the wire.
        #expect(MIDIBytes.noteOn(channel: 0, note: 64, velocity: 0).meaning == .noteOff(note: 64))
        #expect(MIDIBytes.noteOff(channel: 15, note: 1).meaning == .noteOff(note: 1))
        #expect(MIDIBytes.controlChange(channel: 9, controller: 7, value: 100).meaning == .controlChange(controller: 7, value: 100))
        #expect(MIDIBytes.programChange(channel: 2, program: 12).meaning == .other && MIDIBytes.clock.meaning == .other)
    }
}

/// The ALSA sequencer cannot be opened here (no /dev/snd/seq), so what is tested is how
/// alsa-lib's own encoder turns the bytes Clumsy sends into sequencer events.
@Suite struct ALSAEncodingTests {
    @Test func alsaReadsNotesAndClockAsSequencerEvents() throws {
        let on = try #require(ALSASequencerOutput.encode(.noteOn(channel: 1, note: 71, velocity: 95)))
        #expect(on.type == .noteOn && on.channel == 1 && on.data1 == 71 && on.data2 == 95)
        let off = try #require(ALSASequencerOutput.encode(.noteOff(channel: 0, note: 48)))
        #expect(off.type == .noteOff && off.channel == 0 && off.data1 == 48)
        #expect(ALSASequencerOutput.encode(.clock)?.type == .clock)
        #expect(ALSASequencerOutput.encode(.start)?.type == .start)
        #expect(ALSASequencerOutput.encode(.stop)?.type == .stop)
    }

    @Test func withoutASequencerDeviceOpeningIsUnavailableInOneLine() {
        // Where /dev/snd/seq exists this opens a real client; then there is nothing to check here.
        do {
            let output = try ALSASequencerOutput(ports: ["bass", "keys"])
            output.close(timeout: 0)
        } catch {
            guard case .unavailable(let message) = error else { Issue.record("expected .unavailable, got \(error)"); return }
            #expect(message.contains("/dev/snd/seq") && message.contains("--midi-out alsa") && !message.contains("\n"),
                    "\(message)")
        }
    }
}

/// `--clock-in alsa` and `--midi-in alsa` read what other clients send through alsa-lib's
/// decoder: a message becomes a sequencer event in the sender and bytes again in Clumsy.
/// These must be the bytes the clock follower and the held-notes rules read from JACK.
@Suite struct ALSADecodingTests {
    @Test func clockAndNotesReachTheInputAsTheBytesSent() throws {
        let messages: [[UInt8]] = [
            [0xF8], [0xFA], [0xFB], [0xFC],            // clock, Start, Continue, Stop
            [0xF2, 0x10, 0x02],                        // Song Position Pointer: sixteenth 272
            [0x90, 62, 100], [0x93, 66, 1], [0x80, 62, 64], [0x9F, 69, 127], [0xB0, 64, 127],
        ]
        for message in messages {
            #expect(ALSASequencerInput.roundTrip(message) == message, "\(message.map { String($0, radix: 16) })")
        }
    }

    @Test func aNoteOnWithoutVelocityStaysANoteOnWithoutVelocity() {
        // The held-notes rules read it as a release; ALSA must not turn it into anything else.
        #expect(ALSASequencerInput.roundTrip([0x90, 60, 0]) == [0x90, 60, 0])
    }

    @Test func withoutASequencerDeviceOpeningAnInputIsUnavailableNamingTheFlag() {
        do {
            let input = try ALSASequencerInput(clientName: "Clumsy-test", port: "in", flag: "--midi-in")
            input.close()
        } catch {
            guard case .unavailable(let message) = error else { Issue.record("expected .unavailable, got \(error)"); return }
            #expect(message.contains("/dev/snd/seq") && message.contains("--midi-in") && !message.contains("\n"), "\(message)")
        }
    }
}

@Suite struct OSCTests {
    @Test func messagesRoundTripThroughLiblo() throws {
        let message = OSCMessage(path: "/clumsy/note", arguments: [.string("keys"), .int(60), .float(0.5), .number(2.25, type: "d")])
        let packet = message.encoded()
        #expect(packet.count % 4 == 0 && packet.count > 20)
        let decoded = try packet.withUnsafeBytes { try OSCMessage.decode($0).get() }
        #expect(decoded == message)
    }

    @Test func garbageAndBundlesAreRefusedNotCrashed() {
        let inputs: [[UInt8]] = [[], [1, 2, 3], Array("/clumsy/gravity".utf8), Array("#bundle\0\0\0\0\0\0\0\0\u{1}".utf8),
                                 [0x2F, 0x61, 0, 0, 0x2C, 0x66, 0, 0, 1]]   // declares a float, carries 1 byte
        for input in inputs {
            let result = input.withUnsafeBytes { OSCMessage.decode($0) }
            if case .success(let message) = result { Issue.record("decoded \(input) as \(message)") }
        }
    }

    @Test func hostPortParsing() throws {
        #expect(try parseHostPort("127.0.0.1:9000", flag: "--osc-out", defaultHost: nil) == ("127.0.0.1", 9000))
        #expect(try parseHostPort("[::1]:57120", flag: "--osc-out", defaultHost: nil) == ("::1", 57120))
        #expect(try OSCReceiver.parse("9001") == ("127.0.0.1", 9001))
        #expect(try OSCReceiver.parse("0.0.0.0:9001") == ("0.0.0.0", 9001))
        // Issue 44 #9: port 0 would bind a port nobody is told.
        for bad in ["0", "127.0.0.1:0", "65536"] {
            #expect(throws: StudioError.self, "\(bad)") { try OSCReceiver.parse(bad) }
        }
        for bad in ["localhost", "host:0", "host:70000", "host:x"] {
            #expect(throws: StudioError.self) { try parseHostPort(bad, flag: "--osc-out", defaultHost: nil) }
        }
    }

    @Test func aReceiverHearsWhatASenderSends() throws {
        let heard = Box()
        let receiver = try OSCReceiver(listen: "127.0.0.1:0", allowsAnyPort: true) { result in heard.append(result) }
        defer { receiver.stop() }
        let sender = try OSCSender(target: "127.0.0.1:\(receiver.port)")
        #expect(sender.send(OSCMessage(path: "/clumsy/gravity", arguments: [.float(3.5)])))
        for _ in 0..<100 where heard.count == 0 { usleepSeconds(0.01) }
        let first = try #require(heard.first)
        #expect(try first.get() == OSCMessage(path: "/clumsy/gravity", arguments: [.float(3.5)]))
    }
}

final class Box: @unchecked Sendable {
    private var items: [Result<OSCMessage, StudioError>] = []
    private let lock = NSLockLite()
    func append(_ item: Result<OSCMessage, StudioError>) { lock.locked { items.append(item) } }
    var count: Int { lock.locked { items.count } }
    var first: Result<OSCMessage, StudioError>? { lock.locked { items.first } }
}

/// Issue 44 #1: a frame computed from a master's values that no integer holds (+∞, NaN,
/// 1e300) is no frame, not a trap.
@Suite struct JackFrameTests {
    @Test func framesNoIntegerHoldsAreNone() {
        for frame in [Double.infinity, -.infinity, .nan, 1e300, -1e300, 4.7e18] {
            #expect(JackTransport.jackFrame(frame) == nil, "\(frame)")
        }
        #expect(JackTransport.jackFrame(4_294_967_296 + 5.4) == 5)
        #expect(JackTransport.jackFrame(-1) == UInt32.max)
    }
}
