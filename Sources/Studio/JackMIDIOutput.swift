// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CJack
import MIDIWire
#if canImport(Glibc)
import Glibc
#endif

/// A JACK client (`clumsy`) with one MIDI output port per name, paced by the server's clock.
///
/// Session time maps to JACK frames: t seconds sound at frame `origin + round(t × rate)`,
/// where `origin` is the server's frame time at the start plus a lead of a few periods. The
/// session thread queues events ahead of time into a lock-free ring; JACK's process callback
/// (C, in the shim) writes each at its exact offset in its cycle, allocating nothing.
/// `wait(until:)` holds the session to the server's frame time, not the wall clock, so the two
/// never drift apart; when the session falls more than `maximumLag` behind it forgets the
/// debt (the origin moves) instead of bursting.
public final class JackMIDIOutput: LiveMIDIPort {
    private let state: UnsafeMutablePointer<clumsy_jack_state>
    /// Port names in index order, as registered (`clumsy:<name>`).
    public let portNames: [String]
    /// The client name the server gave us (normally `clumsy`).
    public let clientName: String
    /// The server's sample rate, Hz.
    public let sampleRate: Double
    /// Frames per process cycle.
    public let periodFrames: Int
    /// Frames between queuing an event and the cycle that plays it, at the least.
    public let leadFrames: Int
    /// Largest lag, seconds, before the origin moves.
    public let maximumLag: Double
    private var origin: UInt32 = 0
    private var isStarted = false
    private var isClosed = false
    private var shifts = 0

    /// The JACK server looked for: `$JACK_DEFAULT_SERVER`, else `default`.
    public static func serverName(environment: [String: String]) -> String {
        environment["JACK_DEFAULT_SERVER"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
    }

    /// Opens the client, registers `ports`, activates, and connects each port but the clock to
    /// the destinations in `connections` (JACK port names such as `fluidsynth:midi_00`), and
    /// the port named `clock` to those in `clockConnections` (a synthesizer has no use for clock).
    /// No server: `.unavailable` naming the server and how to start one.
    public init(clientName name: String = "clumsy", ports: [String], connections: [String], clockConnections: [String] = [],
                environment: [String: String], maximumLag: Double = 0.25) throws(StudioError) {
        let server = Self.serverName(environment: environment)
        let state = try Self.activated(name: name, ports: ports, server: server)
        self.state = state
        clientName = String(cString: jack_get_client_name(state.pointee.client))
        sampleRate = Double(jack_get_sample_rate(state.pointee.client))
        periodFrames = Int(jack_get_buffer_size(state.pointee.client))
        leadFrames = max(4 * periodFrames, Int(sampleRate * 0.04))
        self.maximumLag = maximumLag
        portNames = ports
        // Every property is set, so a throw below runs deinit: mark the state closed first.
        let wanted = connections.map { ("--connect", $0, false) } + clockConnections.map { ("--connect-clock", $0, true) }
        for (flag, destination, isClock) in wanted {
            for (index, port) in ports.enumerated() where (port == "clock") == isClock {
                let source = String(cString: jack_port_name(clumsy_jack_port(state, Int32(index))))
                let result = jack_connect(state.pointee.client, source, destination)
                if result != 0 && result != EEXIST {
                    clumsy_jack_close(state, 1)
                    isClosed = true
                    throw .usage("\(flag) \(destination): JACK cannot connect \(source) to it (no such MIDI input port on server \"\(server)\"; list them with `jack_lsp -t`)")
                }
            }
        }
    }

    /// Opens the client with `ports` and activates it, opened again while it is deaf (its process
    /// callback never runs: the comment above `CLUMSY_JACK_FIRST_CYCLE_MS` in the shim says why), with the
    /// connections other programs made to it meanwhile.
    /// - Throws: `.unavailable` when there is no server, JACK refuses a port or the activation,
    ///   or every attempt was deaf.
    private static func activated(name: String, ports: [String], server: String) throws(StudioError) -> UnsafeMutablePointer<clumsy_jack_state> {
        var attempt: Int32 = 1
        var kept: [[String]] = []   // connections made to a deaf attempt's ports, carried over
        while true {
            var status: Int32 = 0
            guard let state = clumsy_jack_open(name, &status) else {
                throw .noJackServer(server, status: status, for: "--midi-out jack")
            }
            for port in ports where clumsy_jack_add_port(state, port) < 0 {
                clumsy_jack_close(state, 0)
                throw .unavailable("JACK refused the MIDI port \(name):\(port)")
            }
            guard jack_activate(state.pointee.client) == 0 else {
                clumsy_jack_close(state, 0)
                throw .unavailable("JACK refused to activate the client \(name) on server \"\(server)\"")
            }
            for (index, destinations) in kept.enumerated() {
                let source = jack_port_name(clumsy_jack_port(state, Int32(index)))
                for destination in destinations { _ = jack_connect(state.pointee.client, source, destination) }
            }
            if clumsy_jack_ran_first_cycle(state) != 0 { return state }
            let isShutDown = clumsy_jack_is_shut_down(state) != 0
            kept = ports.indices.map { connections(of: clumsy_jack_port(state, Int32($0))) }
            clumsy_jack_close(state, isShutDown ? 0 : 1)
            guard attempt < CLUMSY_JACK_OPEN_ATTEMPTS else {
                throw isShutDown ? .unavailable("the JACK server \"\(server)\" shut the client \(name) down as it opened")
                    : .jackDeaf(name, server: server)
            }
            clumsy_jack_reopen_pause()
            attempt += 1
        }
    }

    /// The full names of the ports connected to `port` (the shim's copy, read before the close).
    private static func connections(of port: OpaquePointer?) -> [String] {
        guard let list = clumsy_jack_copy_connections(port) else { return [] }
        defer { clumsy_jack_free_names(list) }
        var names: [String] = []
        while let name = list[names.count] { names.append(String(cString: name)) }
        return names
    }

    /// Session time 0 is fixed by the first event or wait, not when the client opened: the
    /// session's set-up (building the world, opening files) must not make the first notes late.
    private func startIfNeeded() {
        guard !isStarted else { return }
        isStarted = true
        origin = jack_frame_time(state.pointee.client) &+ UInt32(leadFrames)
    }

    deinit { close(timeout: 0) }

    /// When set (`--clock-in`), the frame at which a session time sounds, by a master's clock.
    public var timeline: ((Double) -> UInt32?)?
    /// When set (`--clock-in`), whether a session time is due by the master's clock: the session
    /// waits for it instead of the server's time (and so pauses while the master is stopped).
    public var gate: ((Double) -> Bool)?
    /// When set, true once the session was stopped by a signal (SIGINT, SIGTERM…): what it
    /// then sends (the notes it ends, the clock's Stop) is queued one lead from now, never at
    /// a frame already past. A master that had stopped (or that the session did not follow)
    /// places the session's last times where its clock stood then, seconds ago: queued there,
    /// they were counted late by as long as the master had been stopped (issue 44).
    public var isStopped: (() -> Bool)?

    /// The server's frame at `micros`, a CLOCK_MONOTONIC time in microseconds (JACK's clock).
    public func frame(atMicroseconds micros: Int64) -> UInt32 {
        jack_time_to_frames(state.pointee.client, jack_time_t(max(0, micros)))
    }

    private func frame(_ seconds: Double) -> UInt32 {
        let frame = timeline?(seconds) ?? origin &+ UInt32(truncatingIfNeeded: Int64((seconds * sampleRate).rounded()))
        guard isStopped?() == true else { return frame }
        let soonest = jack_frame_time(state.pointee.client) &+ UInt32(leadFrames)
        return Int32(bitPattern: frame &- soonest) < 0 ? soonest : frame
    }

    public var isGone: Bool { isStalled || (!isClosed && clumsy_jack_is_shut_down(state) != 0) }
    private var isStalled: Bool { liveness.isStalled }
    private var liveness = JackLiveness()
    /// Seconds without a single process cycle after which the server counts as stalled.
    public static let stallTimeout = JackLiveness.stallTimeout

    /// Notes when the server last ran a cycle; marks it stalled after `stallTimeout` without one.
    private func checkProgress() {
        liveness.check(cycles: clumsy_jack_cycles(state))
    }

    public func send(_ message: MIDIBytes, port: Int, at seconds: Double) -> Bool {
        guard !isClosed else { return false }
        startIfNeeded()
        let at = frame(seconds)
        while clumsy_jack_push(state, at, Int32(port), Int32(message.count), message.status, message.data1, message.data2) == 0 {
            // The ring is full: the callback empties it every period. A server that runs no
            // cycle for `stallTimeout` (stopped, hung) counts as gone rather than hanging the session.
            checkProgress()
            if isGone { return false }
            usleep(1000)
        }
        return !isGone
    }

    public func wait(until seconds: Double, shouldStop: () -> Bool) {
        guard !isClosed else { return }
        startIfNeeded()
        if let gate {
            // Paced by the master's clock; held while it is stopped.
            while true {
                checkProgress()
                if isGone || shouldStop() || gate(seconds) { return }
                usleep(1000)
            }
        }
        let client = state.pointee.client
        while true {
            checkProgress()
            if isGone || shouldStop() { return }
            let now = jack_frame_time(client)
            // Frames until this session time must be queued (lead frames before it sounds).
            let ahead = Int64(Int32(bitPattern: frame(seconds) &- now)) - Int64(leadFrames)
            if ahead <= 0 {
                if -ahead > Int64(maximumLag * sampleRate) {
                    origin = origin &+ UInt32(truncatingIfNeeded: -ahead)
                    shifts += 1
                }
                return
            }
            let sleep = min(Double(ahead) / sampleRate, 0.02)
            usleep(UInt32(max(sleep * 1e6, 200)))
        }
    }

    public func close(timeout: Double) {
        guard !isClosed else { return }
        isClosed = true
        var waited = 0.0
        while clumsy_jack_pending(state) > 0 && !isGone && waited < timeout {
            usleep(5000)
            waited += 0.005
            checkProgress()
        }
        if !isGone {
            // Is the server still cycling? (A stopped server would not answer the deactivate.)
            let before = clumsy_jack_cycles(state)
            var quiet = 0.0
            while clumsy_jack_cycles(state) == before && quiet < Self.stallTimeout && clumsy_jack_is_shut_down(state) == 0 {
                usleep(5000)
                quiet += 0.005
            }
            if clumsy_jack_cycles(state) == before && clumsy_jack_is_shut_down(state) == 0 { liveness.markStalled() }
        }
        finalReport = report()
        deliveredAtClose = clumsy_jack_delivered(state)
        // A stalled server would not answer a deactivate or close: leave the client to the
        // process's exit then (the callback, if it ever runs again, finds its state intact).
        if !isStalled { clumsy_jack_close(state, clumsy_jack_is_shut_down(state) != 0 ? 0 : 1) }
    }

    private var finalReport: String?
    private var deliveredAtClose: UInt64 = 0

    public var deliveryReport: String? { isClosed ? finalReport : report() }

    private func report() -> String? {
        let late = clumsy_jack_late(state), dropped = clumsy_jack_dropped(state)
        guard late > 0 || dropped > 0 || shifts > 0 else { return nil }
        let worst = Double(clumsy_jack_worst_late(state)) / sampleRate * 1000
        return "JACK MIDI: \(late) events late (worst \(Int(worst.rounded())) ms), \(dropped) dropped by full port buffers, "
            + "\(shifts) times the session fell more than \(Int(maximumLag * 1000)) ms behind the server"
    }

    /// Events written into port buffers so far.
    public var deliveredCount: UInt64 { isClosed ? deliveredAtClose : clumsy_jack_delivered(state) }
}
