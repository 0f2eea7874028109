// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CJack
#if canImport(Glibc)
import Glibc
#endif

/// A JACK client (`clumsy-transport`, no ports) that reads the server's transport in every
/// process cycle (`--transport jack`): rolling or stopped, the frame, a timebase master's bar,
/// beat, tick and tempo, and how many times the frame jumped. The shim's callback copies them;
/// the session thread reads the last cycle's.
public final class JackTransport {
    private let state: UnsafeMutablePointer<clumsy_jack_transport>
    private var isClosed = false
    /// Unwrapping JACK's 32-bit frame counters.
    private var cycleClock = FrameUnwrapper(), nowClock = FrameUnwrapper()

    /// Opens the client on the server `$JACK_DEFAULT_SERVER` (else `default`).
    /// No server: `.unavailable` naming it and how to start one.
    public init(clientName: String = "clumsy-transport", environment: [String: String]) throws(StudioError) {
        let server = JackMIDIOutput.serverName(environment: environment)
        var status: Int32 = 0
        guard let state = clumsy_jack_open_transport(clientName, &status) else {
            if status > 0 {
                throw .noJackServer(server, status: status, for: "--transport jack")
            }
            throw .unavailable("JACK would not activate the transport client \(clientName) on server \"\(server)\"")
        }
        guard state.pointee.deaf == 0 else {
            clumsy_jack_transport_close(state)
            throw .jackDeaf(clientName, server: server)
        }
        self.state = state
    }

    /// The last cycle's transport (nil before the first cycle, or once closed).
    public func reading() -> TransportReading? {
        guard !isClosed else { return nil }
        var raw = clumsy_jack_transport_snapshot()
        guard clumsy_jack_transport_read(state, &raw) != 0 else { return nil }
        let bbt = raw.has_bbt == 0 ? nil
            : TransportReading.BBT(bar: Int(raw.bar), beat: Int(raw.beat), tick: Double(raw.tick), ticksPerBeat: raw.ticks_per_beat,
                                   beatsPerBar: raw.beats_per_bar, beatType: raw.beat_type, beatsPerMinute: raw.beats_per_minute)
        return TransportReading(cycle: cycleClock.unwrap(raw.cycle), frame: Double(raw.frame), sampleRate: Double(raw.frame_rate),
                                isRolling: raw.rolling != 0, bbt: bbt, relocations: raw.relocations)
    }

    /// The server's frame time now, on the snapshots' (unwrapped) count.
    public var frameTime: Double { isClosed ? 0 : nowClock.unwrap(clumsy_jack_transport_frame_time(state)) }

    /// The unwrapped frame `frame` (on `frameTime`'s count) as JACK's 32-bit frame time; nil
    /// when it is not finite or beyond ±2⁶² (no integer holds it: nothing computed from a
    /// master's values may trap).
    public static func jackFrame(_ frame: Double) -> UInt32? {
        guard frame.isFinite, abs(frame) < 4.6e18 else { return nil }
        return UInt32(truncatingIfNeeded: Int64(frame.rounded()))
    }

    private var liveness = JackLiveness()

    /// True when the server went away or stopped running cycles (`JackLiveness`); each call
    /// notes the cycles run.
    public var isGone: Bool {
        guard !isClosed else { return false }
        return clumsy_jack_transport_is_shut_down(state) != 0 || liveness.check(cycles: clumsy_jack_transport_cycles(state))
    }

    /// Closes the client. Idempotent. A stalled server would not answer: the client is then
    /// left to the process's exit.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        if !liveness.isStalled { clumsy_jack_transport_close(state) }
    }

    deinit { close() }
}

/// Unwraps a 32-bit frame counter into one that only grows (readings less than half the
/// counter's range apart).
struct FrameUnwrapper {
    private var last: UInt32?
    private var wraps = 0.0

    mutating func unwrap(_ raw: UInt32) -> Double {
        if let last, raw < last, last - raw > UInt32.max / 2 { wraps += 4_294_967_296 }
        last = raw
        return wraps + Double(raw)
    }
}

/// One process cycle's transport, as `JackTransport` read it.
public struct TransportReading: Sendable, Equatable {
    /// A timebase master's position and tempo (JACK's BBT fields).
    public struct BBT: Sendable, Equatable {
        public var bar: Int, beat: Int
        public var tick: Double, ticksPerBeat: Double, beatsPerBar: Double, beatType: Double, beatsPerMinute: Double
    }
    /// The server's frame time at the cycle's start, unwrapped (it only grows).
    public var cycle: Double
    /// The transport's frame at the cycle's start.
    public var frame: Double
    public var sampleRate: Double
    public var isRolling: Bool
    public var bbt: BBT?
    /// Frame jumps (locates) counted since the client opened.
    public var relocations: UInt64
}
