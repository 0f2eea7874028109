// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Engine
import Errors
import Studio
#if canImport(Glibc)
import Glibc
#endif

/// A master the live session follows (`--clock-in`, `--transport`): it paces the session,
/// places its notes on the master's frames and gives its tempo as controls.
public protocol MasterClock: ControlSource {
    /// Set when the master's server went away during the session (the session then ends, its
    /// files completed, and the runner exits with this: 74).
    var failure: SessionError? { get }
    /// The JACK frame at which the session's (recorded) time `time` sounds by the master.
    func frame(at time: Double) -> UInt32?
    /// True when session time `time` is due by the master (never while it is stopped).
    func isDue(_ time: Double) -> Bool
    /// Waits until `time` is due, or `shouldStop()` says so.
    func wait(until time: Double, shouldStop: () -> Bool)
    /// Stops listening.
    func close()
    /// Notes go out on JACK: `jackFrame` gives the frame at a CLOCK_MONOTONIC time in
    /// microseconds (a master that keeps time in microseconds, Link, needs it).
    func use(jackFrame: @escaping (Int64) -> UInt32)
}

extension MasterClock {
    public func use(jackFrame: @escaping (Int64) -> UInt32) {}
    public var failure: SessionError? { nil }
}

extension ClockInSync: MasterClock {}

/// `--transport jack`: the live session follows JACK transport (`TransportFollower` on the
/// snapshots of `JackTransport`), as the LV2 plugin follows its host's.
///
/// - **Takes.** The session plays in takes (`TransportTakes`): each is built at the
///   transport's position (`Simulator.fastForward`, the plugin's relocation) and plays while the
///   transport rolls; a locate ends the take and the next is built where the transport went.
/// - **Tempo.** The timebase master's tempo (its BBT), held from the session's start when a
///   take is built, and followed as a `tempo` control (logged) when it changes while a take
///   plays. Without a timebase master, the session's tempo.
/// - **Position.** Session quarter notes are the master's (a bar of the session is the bar of
///   the transport); a note due at session time t goes out at the frame where the transport
///   reaches t's quarter. A master whose beats jump at a new tempo while its frames run on
///   (`jack_transport` recounts its bars from frame 0) is met at its next bar line. The session is paced by it, so it waits while the transport is
///   stopped and goes on when it rolls again.
public final class TransportSync: MasterClock {
    private let transport: JackTransport
    private var follower: TransportFollower
    private var timestep = 1.0 / 240
    /// Quarter notes in the session's bar.
    private var barQuarters = 4.0
    /// The take's quarter notes: `quarters` at session time `time`, `tempo` since.
    private var count = QuarterCount(tempo: 120)
    /// Master quarters minus session quarters, whole bars: where a master's beats moved while
    /// its frames ran on, the session plays on from the master's next bar line.
    private var offset = 0.0
    /// Recorded seconds minus the take's session seconds: the sinks' times are the recording's.
    public private(set) var shift = 0.0
    /// True from a locate until the next take begins.
    public private(set) var isRelocated = false

    /// Seconds a note is queued before it sounds (as `ClockInSync`'s).
    private let leadSeconds = 0.04
    /// A timebase master's tempo, bar, beat and tick that are not followed, said once (not
    /// when `quiet`).
    private var refusal: TempoRefusal

    /// Opens the transport client (`follow(_:)` gives it the session once it is built).
    /// `quiet` (`--quiet`): what is not followed is not said.
    public init(environment: [String: String], quiet: Bool = false) throws(SessionError) {
        refusal = TempoRefusal(quiet: quiet)
        do {
            transport = try JackTransport(environment: environment)
        } catch {
            throw SessionError(error)
        }
        what = StudioError.jackServer(environment: environment)
        follower = TransportFollower(sessionTempo: 120, tempos: TempoRefusal.tempos)
    }

    /// The session to follow with: its tempo (the position without a timebase master) and step.
    public func follow(_ plan: SessionPlan) {
        timestep = plan.world.timestep
        barQuarters = Double(plan.clock.meter.beats) * 4 / Double(plan.clock.meter.unit)
        follower.sessionTempo = plan.clock.tempo
        count = QuarterCount(tempo: plan.clock.tempo)
    }

    public func close() { transport.close() }

    /// The transport now, after the server's first cycle (waits for it up to a second).
    public func opening() -> (meter: String?, tempo: Double?) {
        for _ in 0..<1000 where follower.last == nil {
            refresh()
            if follower.last == nil { usleep(1000) }
        }
        let bbt = follower.last?.bbt
        return (bbt?.meter, bbt.map(\.quarterTempo))
    }

    private func refresh() {
        guard let reading = transport.reading() else { return }
        let bbt = reading.bbt.map {
            BarBeatTick(bar: $0.bar, beat: $0.beat, tick: $0.tick, ticksPerBeat: $0.ticksPerBeat, beatsPerBar: $0.beatsPerBar,
                        beatType: $0.beatType, beatsPerMinute: $0.beatsPerMinute)
        }
        let snapshot = TransportSnapshot(cycle: reading.cycle, frame: reading.frame, sampleRate: reading.sampleRate,
                                         isRolling: reading.isRolling, bbt: bbt, relocations: reading.relocations)
        switch follower.take(snapshot) {
        case .relocated?: isRelocated = true
        // The session goes on at the master's next bar line (as a MIDI clock's locate): it
        // waits for it rather than rush, and its bars stay on the master's.
        case .rephased(let quarters)?: offset += (quarters / barQuarters - 1e-9).rounded(.up) * barQuarters
        case nil: break
        }
        if let bbt = follower.refused { refuse(bbt) }
    }

    /// Says once that a timebase master's bar, beat and tempo are not followed.
    private func refuse(_ bbt: BarBeatTick) {
        let instead = "its bars and tempo are not followed; the session counts the transport's frames at its own tempo"
        guard TempoRefusal.tempos.contains(bbt.quarterTempo) else {
            refusal.refuse("the JACK timebase master", tempo: bbt.quarterTempo, instead: instead)
            return
        }
        refusal.say("the JACK timebase master gives a bar of \(bbt.beatsPerBar) beats of 1/\(bbt.beatType), \(bbt.ticksPerBeat) ticks a beat "
                    + "(tick \(bbt.tick)): \(instead)")
    }

    /// True when the JACK server went away (or stopped running): `failure` is then set.
    public var isGone: Bool {
        if failure == nil && transport.isGone { failure = SessionError(StudioError.wentAway(what)) }
        return failure != nil
    }
    /// Set when the JACK server went away during the session.
    public private(set) var failure: SessionError?
    private let what: String

    /// Where the transport is now: quarter notes, the tempo to hold from the session's start,
    /// and whether it rolls (nil before its first cycle).
    /// Reading it is where a relocation is taken: one that comes after it (while the take is
    /// built) is the next take's.
    public func position() -> (quarters: Double, tempo: Double, isRolling: Bool)? {
        refresh()
        isRelocated = false
        guard let quarters = follower.quarters(atFrame: transport.frameTime) else { return nil }
        return (quarters, follower.tempo, follower.isRolling)
    }

    /// Session seconds the take at `time` is behind the transport (its lead included): a take
    /// built while the transport rolled catches up silently by that much.
    public func lag(behind time: Double) -> Double {
        refresh()
        guard !isRelocated, follower.isRolling, let now = follower.quarters(atFrame: transport.frameTime) else { return 0 }
        let master = now + leadSeconds * follower.tempo / 60
        return (master - offset - sessionQuarters(time)) * 60 / count.tempo
    }

    /// A take begins: session time `time` (built at `tempo`, held from the session's start)
    /// is recorded at `recorded`.
    public func beginTake(at time: Double, tempo: Double, recorded: Double) {
        count = QuarterCount(tempo: tempo)
        offset = 0
        shift = recorded - time
        follower.sessionTempo = tempo
    }

    /// Waits until the transport is located (again), or `shouldStop()` says so: a transport
    /// past the session's end plays nothing until it comes back.
    public func waitForLocate(shouldStop: () -> Bool) {
        refresh()
        isRelocated = false
        while !shouldStop() && !isGone {
            refresh()
            if isRelocated { return }
            usleep(2000)
        }
    }

    /// The take's quarter notes at session time `time`.
    private func sessionQuarters(_ time: Double) -> Double { count.at(time) }

    public func frame(at time: Double) -> UInt32? {
        refresh()
        guard !isRelocated, let frame = follower.frame(atQuarters: sessionQuarters(time - shift) + offset).flatMap(JackTransport.jackFrame) else {
            return JackTransport.jackFrame(transport.frameTime)
        }
        return frame
    }

    public func isDue(_ time: Double) -> Bool {
        refresh()
        if isRelocated || isGone { return true }   // the take ends at its next step
        guard follower.isRolling, let now = follower.quarters(atFrame: transport.frameTime) else { return false }
        let master = now + leadSeconds * follower.tempo / 60
        return master >= sessionQuarters(time - shift) + offset
    }

    public func wait(until time: Double, shouldStop: () -> Bool) {
        while !shouldStop() && !isDue(time) { usleep(1000) }
    }

    /// Ends the take at a locate (the runner builds the next); otherwise a tempo of the master's
    /// that differs from the session's by more than 0.5 % becomes a `tempo` control.
    public func poll(step: Int64, into controls: inout [Control]) -> Bool {
        refresh()
        if isRelocated || isGone { return false }
        // The master's tempo is the session's: another tempo (a scene's, `/clumsy/tempo`, polled
        // before this) would put the notes off its beats.
        controls.removeAll { if case .tempo = $0 { return true } else { return false } }
        if follower.isRolling, let control = count.follow(follower.tempo, at: Double(step) * timestep) { controls.append(control) }
        return true
    }
}
