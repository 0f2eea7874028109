// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Engine
import Errors
import Studio
#if canImport(Glibc)
import Glibc
#endif

/// `--link`: the live session is a peer of an Ableton Link session (`LinkSession`).
///
/// - **Tempo.** Joining alone, the session's tempo is the Link session's; joining others, their
///   tempo becomes the session's (a `tempo` control at the next step, logged), and so does
///   every tempo a peer proposes later (followed when it differs by more than 0.5 %). A tempo
///   the session is given (`/clumsy/tempo`) is proposed to the others.
/// - **Phase.** A bar is Link's quantum: the session begins at the Link session's next bar
///   line, so its bars and beats are the other peers'. Each note goes out at the time Link
///   gives its beat (with `--midi-out jack`, at that JACK frame).
/// - **Start and stop.** The session proposes that the Link session plays (start/stop sync);
///   when a peer stops it, the session pauses, and goes on at the next bar line when it plays
///   again.
public final class LinkSync: MasterClock {
    private let link: LinkSession
    private let quantum: Double
    private let timestep: Double
    /// The session's quarter notes: `quarters` at session time `time`, `tempo` since.
    private var count: QuarterCount
    /// Link beats minus session quarters: whole bars, set when the session begins or plays again.
    private var offset: Double?
    private var wasPlaying = true
    /// The last session time asked about: where a session that plays again goes on from.
    private var lastAsked = 0.0
    /// CLOCK_MONOTONIC minus Link's clock, microseconds: read again every 240 steps (NTP
    /// slews one and not the other).
    private var toMonotonic = LinkSession.monotonicOffset()
    /// A JACK output's frame at a CLOCK_MONOTONIC time, when notes go out on JACK.
    private var jackFrame: ((Int64) -> UInt32)?

    /// Seconds a note is queued before it sounds (as `ClockInSync`'s).
    private let leadSeconds = 0.04
    /// A Link tempo that is not followed, said once (not when `quiet`).
    private var refusal: TempoRefusal

    /// Joins Link for `plan`; waits up to `discovery` seconds for other peers, so that a
    /// session that joins others takes their tempo before it begins. `quiet` (`--quiet`): a
    /// tempo that is not followed is not said.
    public init(plan: SessionPlan, discovery: Double = 1.0, quiet: Bool = false) throws(SessionError) {
        refusal = TempoRefusal(quiet: quiet)
        do {
            link = try LinkSession(tempo: plan.clock.tempo)
        } catch {
            throw SessionError(error)
        }
        let meter = plan.clock.meter
        quantum = Double(meter.beats) * 4 / Double(meter.unit)
        timestep = plan.world.timestep
        count = QuarterCount(tempo: plan.clock.tempo)
        var waited = 0.0
        while link.peers == 0 && waited < discovery {
            usleep(20_000)
            waited += 0.02
        }
    }

    /// Other peers in the session now.
    public var peers: Int { link.peers }

    public func close() { link.close() }

    public func use(jackFrame: @escaping (Int64) -> UInt32) { self.jackFrame = jackFrame }

    private func sessionQuarters(_ time: Double) -> Double { count.at(time) }

    private var lead: Int64 { Int64(leadSeconds * 1_000_000) }

    /// Begins at the Link session's next bar line still ahead of the lead, proposing that it
    /// plays from there.
    private func begin(at session: Double) -> Double {
        let now = link.micros + lead
        let state = link.state(at: now, quantum: quantum)
        let bar = (state.beat / quantum).rounded(.up) * quantum
        let offset: Double
        if let old = self.offset {
            // Playing again: on at a bar line of Link's still ahead, whole bars on, so that the
            // session's bars stay Link's.
            offset = old + ((state.beat - (sessionQuarters(session) + old)) / quantum).rounded(.up) * quantum
        } else {
            offset = bar - sessionQuarters(session)
        }
        if !state.isPlaying { link.start(at: link.micros(atBeat: bar, quantum: quantum), beat: bar, quantum: quantum) }
        self.offset = offset
        wasPlaying = true
        return offset
    }

    public func frame(at time: Double) -> UInt32? {
        guard let offset, let jackFrame else { return nil }
        return jackFrame(link.micros(atBeat: sessionQuarters(time) + offset, quantum: quantum) + toMonotonic)
    }

    public func isDue(_ time: Double) -> Bool {
        lastAsked = time
        let offset = self.offset ?? begin(at: time)
        let state = link.state(at: link.micros + lead, quantum: quantum)
        guard state.isPlaying else {
            wasPlaying = false
            return false
        }
        guard TempoRefusal.tempos.contains(state.tempo) else {
            // Not followed (its tempo could not be logged): held as when a peer stops it.
            refusal.refuse("the Link session", tempo: state.tempo, instead: "the session waits until it plays within them (then at its next bar line)")
            wasPlaying = false
            return false
        }
        if !wasPlaying {
            // Playing again (a peer started it): on at the next bar line.
            _ = begin(at: time)
            return false
        }
        return state.beat >= sessionQuarters(time) + offset
    }

    public func wait(until time: Double, shouldStop: () -> Bool) {
        while !shouldStop() && !isDue(time) { usleep(1000) }
    }

    /// A tempo the session takes this step from another control (`/clumsy/tempo`, polled
    /// before this) is proposed to the Link session; otherwise the Link session's tempo, when
    /// it differs from the session's by more than 0.5 %, becomes a `tempo` control.
    public func poll(step: Int64, into controls: inout [Control]) -> Bool {
        let time = Double(step) * timestep
        if step % 240 == 0 { toMonotonic = LinkSession.monotonicOffset() }
        for case .tempo(let proposed) in controls {
            count.change(to: proposed, at: time)
            link.propose(tempo: proposed)
            return true
        }
        // The session's quarters stay where they are; Link's beats ran at its tempo all along.
        if let control = count.follow(link.state(at: link.micros, quantum: quantum).tempo, at: time) { controls.append(control) }
        return true
    }
}
