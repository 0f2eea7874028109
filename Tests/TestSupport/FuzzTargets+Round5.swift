// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import MIDIWire
import Studio

/// Issue 44's fuzz target: what a JACK timebase master and a MIDI clock master send, as the
/// transport and clock followers take it and as the frames notes go out at are computed from
/// it (`TransportSync.frame(at:)`, `ClockInSync.frame(at:)`).
extension FuzzTarget {
    /// An input is a run of records read as raw little-endian values (past its end, zeros), so
    /// every bit pattern (NaN, ±∞, 1e300, bar 2³¹) reaches the followers:
    /// - a transport snapshot (kind byte even): cycle, frame and frame rate, bar and beat
    ///   (Int32), tick, ticks a beat, beats a bar, beat type, beats a minute, flags (rolling,
    ///   has bar-beat-tick, located), then a position in quarter notes to find the frame of;
    /// - a MIDI clock message (kind byte odd): status and two data bytes, the frame it came
    ///   at, then a position in quarter notes to find the frame of.
    ///
    /// Accepted when every frame computed is one JACK can be given; rejected when a master's
    /// value was refused (a snapshot not taken, a bar-beat-tick not followed, a frame no integer
    /// holds). A trap, a tempo followed outside the session's, or a position that is not a
    /// number is a finding.
    public static func masterClocks(tempos: ClosedRange<Double> = 20...400) -> FuzzTarget {
        FuzzTarget(name: "master-clocks", seeds: masterSeeds, tokens: masterTokens, structure: .bytes) { input, _ in
            var reader = RawReader(input)
            var transport = TransportFollower(sessionTempo: 120, tempos: tempos)
            var clock = MIDIClockFollower(sampleRate: 48_000)
            var refused = false
            for _ in 0..<64 where !reader.isAtEnd {
                if reader.byte() % 2 == 0 {
                    refused = try takeSnapshot(&reader, into: &transport) || refused
                } else {
                    let message = MIDIBytes(status: reader.byte(), data1: reader.byte() & 0x7F, data2: reader.byte() & 0x7F,
                                            count: 1 + Int(reader.byte() % 3))
                    _ = clock.receive(message, at: reader.double())
                    let quarters = reader.double()
                    if let frame = clock.frame(atQuarters: quarters), quarters.isFinite, JackTransport.jackFrame(frame) == nil { refused = true }
                }
            }
            return refused ? .rejected : .accepted
        }
    }

    /// One transport snapshot taken by `transport`; true when a value of it was refused.
    private static func takeSnapshot(_ reader: inout RawReader, into transport: inout TransportFollower) throws -> Bool {
        let (cycle, frame, rate) = (reader.double(), reader.double(), reader.double())
        let (bar, beat) = (Int(reader.int32()), Int(reader.int32()))
        let bbt = BarBeatTick(bar: bar, beat: beat, tick: reader.double(), ticksPerBeat: reader.double(), beatsPerBar: reader.double(),
                              beatType: reader.double(), beatsPerMinute: reader.double())
        let flags = reader.byte()
        let snapshot = TransportSnapshot(cycle: cycle, frame: frame, sampleRate: rate, isRolling: flags & 1 != 0,
                                         bbt: flags & 2 != 0 ? bbt : nil, relocations: UInt64(flags >> 2 & 1))
        _ = transport.take(snapshot)
        var refused = !TransportFollower.isUsable(snapshot) || (snapshot.bbt.map { !$0.isUsable(tempos: transport.tempos) } ?? false)
        let quarters = reader.double()
        let tempo = transport.tempo
        guard tempo == transport.sessionTempo || transport.tempos.contains(tempo) else {
            throw Finding(description: "the transport was followed at \(tempo) bpm")
        }
        guard quarters.isFinite, let last = transport.last else { return refused }
        guard let now = transport.quarters(atFrame: last.cycle), now.isFinite else {
            throw Finding(description: "the transport's position is \(String(describing: transport.quarters(atFrame: last.cycle)))")
        }
        if let frame = transport.frame(atQuarters: quarters), JackTransport.jackFrame(frame) == nil { refused = true }
        return refused
    }

    /// Seeds: a master rolling at 120 bpm in 4/4, then at +∞ bpm and 1e300 beats a bar (issue
    /// 44); a MIDI clock started and pulsing at 120 bpm, then at 1000 bpm.
    static var masterSeeds: [[UInt8]] {
        func snapshot(frame: Double, bpm: Double, beatsPerBar: Double, bar: Int32) -> [UInt8] {
            [0] + raw([frame, frame, 48_000]) + raw([bar, 1]) + raw([0, 1920, beatsPerBar, 4, bpm]) + [3] + raw([8.0])
        }
        func clock(_ status: UInt8, frame: Double) -> [UInt8] { [1, status, 0, 0] + raw([frame, 2.0]) }
        let steady = snapshot(frame: 0, bpm: 120, beatsPerBar: 4, bar: 1) + snapshot(frame: 256, bpm: 120, beatsPerBar: 4, bar: 1)
        let wild = snapshot(frame: 512, bpm: .infinity, beatsPerBar: 4, bar: 1) + snapshot(frame: 768, bpm: 90, beatsPerBar: 1e300, bar: 9)
        let pulses = (0..<30).flatMap { clock(0xF8, frame: Double($0) * 1000) }
        let fast = (0..<30).flatMap { clock(0xF8, frame: 30_000 + Double($0) * 120) }
        return [steady + wild, clock(0xFA, frame: 0) + pulses + fast, wild + clock(0xFA, frame: 0) + pulses]
    }

    static let masterTokens: [[UInt8]] = raw([Double.infinity, -.infinity, .nan, 1e300, -1e300, 1e-300, 4.6e18, 0, -0.0, 48_000, 1920, 999])
        .chunked(8) + [raw([Int32.max]), raw([Int32.min]), [0xF8], [0xFA], [0xFB], [0xFC], [0xF2, 0x7F, 0x7F]]

    static func raw<T>(_ values: [T]) -> [UInt8] {
        var out: [UInt8] = []
        for value in values { withUnsafeBytes(of: value) { out += $0 } }
        return out
    }
}

extension Array where Element == UInt8 {
    /// The array in pieces of `size` bytes.
    fileprivate func chunked(_ size: Int) -> [[UInt8]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min(count, $0 + size)]) }
    }
}

/// Raw little-endian values read from bytes, zeros past their end.
struct RawReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { offset >= bytes.count }

    mutating func take(_ count: Int) -> [UInt8] {
        let piece = offset < bytes.count ? Array(bytes[offset..<Swift.min(bytes.count, offset + count)]) : []
        offset += count
        return piece + [UInt8](repeating: 0, count: count - piece.count)
    }

    mutating func byte() -> UInt8 { take(1)[0] }

    mutating func int32() -> Int32 { take(4).withUnsafeBytes { $0.loadUnaligned(as: Int32.self) } }

    mutating func double() -> Double { take(8).withUnsafeBytes { $0.loadUnaligned(as: Double.self) } }
}
