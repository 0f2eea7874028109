// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CLink
#if canImport(Glibc)
import Glibc
#endif

/// A peer of an Ableton Link session (`--link`): its tempo, beats and start/stop, read and
/// proposed from the session thread. Link's own threads find the other peers on the local
/// network (UDP multicast) and keep the timeline. Beats are quarter notes; times are Link's
/// clock (microseconds of CLOCK_MONOTONIC_RAW).
public final class LinkSession {
    private let link: OpaquePointer
    private var isClosed = false

    /// Joins (or starts) a session at `tempo`, quarter notes a minute.
    public init(tempo: Double) throws(StudioError) {
        guard let link = clumsy_link_create(tempo) else { throw .unavailable("Ableton Link could not start (no network sockets?)") }
        self.link = link
    }

    /// The state of the session at `micros`, in bars of `quantum` beats.
    public struct State: Sendable, Equatable {
        public var tempo: Double
        public var beat: Double
        public var isPlaying: Bool
    }

    /// Link's clock now, microseconds.
    public var micros: Int64 { clumsy_link_micros(link) }

    /// Other peers in the session.
    public var peers: Int { isClosed ? 0 : Int(clumsy_link_peers(link)) }

    public func state(at micros: Int64, quantum: Double) -> State {
        var raw = clumsy_link_state()
        clumsy_link_capture(link, micros, quantum, &raw)
        return State(tempo: raw.tempo, beat: raw.beat, isPlaying: raw.playing != 0)
    }

    /// The time at which the session reaches `beat`.
    public func micros(atBeat beat: Double, quantum: Double) -> Int64 { clumsy_link_time_at_beat(link, beat, quantum) }

    /// Proposes a tempo to the session.
    public func propose(tempo: Double) { clumsy_link_set_tempo(link, tempo, micros) }

    /// Proposes that the session plays from `micros`, `beat` falling there.
    public func start(at micros: Int64, beat: Double, quantum: Double) { clumsy_link_set_playing(link, 1, micros, beat, quantum) }

    /// The offset to add to a time of Link's clock (CLOCK_MONOTONIC_RAW) to get CLOCK_MONOTONIC's
    /// (JACK's), microseconds: read back to back, the closest of a few readings.
    public static func monotonicOffset() -> Int64 {
        var best: (span: Int64, offset: Int64)?
        for _ in 0..<5 {
            let before = Self.now(CLOCK_MONOTONIC), raw = Self.now(CLOCK_MONOTONIC_RAW), after = Self.now(CLOCK_MONOTONIC)
            let span = after - before
            if best.map({ span < $0.span }) ?? true { best = (span, (before + after) / 2 - raw) }
        }
        return best?.offset ?? 0
    }

    private static func now(_ clock: clockid_t) -> Int64 {
        var spec = timespec()
        clock_gettime(clock, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000
    }

    /// Leaves the session. Idempotent.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        clumsy_link_destroy(link)
    }

    deinit { close() }
}
