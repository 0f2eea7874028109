// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Engine
import Errors
import MIDIWire
import Studio
import Vocabulary
#if canImport(Glibc)
import Glibc
#endif

/// `--clock-in jack[:port]` or `alsa[:client:port]`: the live session follows a MIDI clock
/// master (`MIDIClockFollower` on JACK input `clumsy-clock:clock_in`, or on ALSA sequencer input
/// `Clumsy-clock:clock_in`, whose events the kernel stamps in microseconds as they arrive).
///
/// - **Tempo.** When the master's tempo (measured over its last beat of pulses) differs from
///   the session's by more than 0.5 %, a `tempo` control takes it at the next step: logged, so
///   `clumsy replay` renders what was heard. The grid, accents, chord changes and bar lines
///   follow, as they follow `/clumsy/tempo`.
/// - **Position.** Session quarter notes map to the master's: a note due at session time t
///   goes out at the frame where the master's clock reaches t's quarter (plus a whole number
///   of bars, set at Start, Continue or a locate so that bar lines meet). The session is paced
///   by that frame, so it waits before Start, pauses at Stop (and when the pulses stop coming:
///   the position is never extrapolated past one pulse) and goes on at Continue.
public final class ClockInSync: ControlSource {
    private let input: any LiveMIDIInput
    private var follower: MIDIClockFollower
    private let barQuarters: Double
    private let timestep: Double
    /// The session's quarter notes.
    private var count: QuarterCount
    /// Master quarters minus session quarters: whole bars.
    private var offset = 0.0
    /// Set by Start and locates (a new place: always the next bar line) and by Continue (the
    /// place it stopped at, unless the master moved meanwhile).
    private var needsRebase = true
    private var keepsPlace = false
    /// Unwrapping JACK's 32-bit frame counter.
    private var lastRaw: UInt32?
    private var wraps = 0.0

    /// The input port's name: JACK's full name (`clumsy-clock:clock_in`), or the ALSA
    /// sequencer port's (`Clumsy-clock:clock_in`).
    public var portName: String { input.portName }
    /// The server or sequencer behind the input, as messages name it.
    private let what: String
    /// Set when the server went away (or stopped running) during the session: the session ends
    /// there, its files completed, and the runner exits with this (74).
    public private(set) var failure: SessionError?
    /// Says a line on standard error (nil with `--quiet`).
    private let notice: ((String) -> Void)?
    /// True from the first look at whether the session is due: the master had started, or the
    /// wait for its Start was said.
    private var saidWaiting = false

    /// Opens the clock input for `plan` (`alsa`, else JACK); connects `source` to it when given.
    /// `notice` says once on standard error that the session waits for the master's Start.
    public init(plan: SessionPlan, alsa: Bool = false, source: String?, environment: [String: String],
                notice: ((String) -> Void)? = nil) throws(SessionError) {
        self.notice = notice
        refusal = TempoRefusal(quiet: notice == nil)
        what = alsa ? "the ALSA sequencer" : StudioError.jackServer(environment: environment)
        do {
            if alsa {
                input = try ALSASequencerInput(clientName: "Clumsy-clock", port: "clock_in", source: source, flag: "--clock-in")
                // ALSA's notes go out directly when due (no frame to queue them at): no lead.
                leadSeconds = 0
            } else {
                let jack = try JackMIDIInput(clientName: "clumsy-clock", port: "clock_in", flag: "--clock-in jack",
                                             environment: environment)
                if let source { try jack.connect(from: source, flag: "--clock-in jack:\(source)") }
                input = jack
                leadSeconds = 0.04
            }
        } catch {
            throw SessionError(error)
        }
        follower = MIDIClockFollower(sampleRate: input.sampleRate)
        let meter = plan.clock.meter
        barQuarters = Double(meter.beats) * 4 / Double(meter.unit)
        timestep = plan.world.timestep
        count = QuarterCount(tempo: plan.clock.tempo)
    }

    /// Stops listening.
    public func close() { input.close() }

    private func unwrap(_ raw: UInt32) -> Double {
        if let lastRaw, raw < lastRaw, lastRaw - raw > UInt32.max / 2 { wraps += 4_294_967_296 }
        lastRaw = raw
        return wraps + Double(raw)
    }

    /// The session's position in quarter notes at session time `time`.
    private func sessionQuarters(_ time: Double) -> Double { count.at(time) }

    /// Takes the messages that came in.
    private func drain() {
        for (frame, message) in input.takeTimed() {
            let before = follower.pulses
            switch follower.receive(message, at: unwrap(frame)) {
            case .started?: (needsRebase, keepsPlace) = (true, false)
            // A master sends its position before Continue: within a sixteenth of where it
            // stopped (SPP counts sixteenths), it has not moved.
            case .located(let pulses)?: (needsRebase, keepsPlace) = (true, keepsPlace && abs(pulses - before) <= 6)
            case .continued?: needsRebase = true
            default: break
            }
        }
    }

    /// Sets the offset at a Start, Continue or locate: the session goes on from where it is at
    /// the master's next bar line still ahead of the lead (a Continue where the master stopped
    /// keeps its place), so bar lines meet.
    private func rebaseIfNeeded(session: Double, master: Double) {
        guard needsRebase else { return }
        let lead = leadSeconds * count.tempo / 60
        if !keepsPlace || abs(master - (session + offset)) > 0.25 + lead {
            offset = ((master + lead - session) / barQuarters).rounded(.up) * barQuarters
        }
        (needsRebase, keepsPlace) = (false, true)
    }

    /// Seconds a note is queued before it sounds: on JACK, enough for the session thread to be
    /// late by several periods, short enough that a Stop silences the next notes.
    private let leadSeconds: Double
    /// A master's tempo that is not followed, said once (not with `--quiet`: no `notice`).
    private var refusal: TempoRefusal

    /// The input's frame (JACK's, for a JACK input) at which session time `time` sounds by the master's clock, extrapolated
    /// at its tempo (nil until its tempo is known).
    public func frame(at time: Double) -> UInt32? {
        drain()
        guard let frame = follower.frame(atQuarters: sessionQuarters(time) + offset) else { return nil }
        return JackTransport.jackFrame(frame)
    }

    /// True when session time `time` is due: the master runs and its position, `lead` seconds
    /// from now, has reached it. Never while it is stopped, nor past one pulse after its last
    /// (a stalled clock holds the session).
    public func isDue(_ time: Double) -> Bool {
        if isGone() { return true }   // the session ends at its next step
        drain()
        if !saidWaiting {
            saidWaiting = true
            if !follower.isRunning { notice?("waiting for the MIDI clock master's Start on \(input.portName): nothing plays until it starts") }
        }
        // The master's position now (never more than a pulse past its last), plus the lead.
        guard follower.isRunning, let tempo = follower.tempo, let now = follower.quarters(atFrame: unwrap(input.frameTime)) else { return false }
        guard TempoRefusal.tempos.contains(tempo) else {
            // Not followed (its tempo could not be logged): held as at a Stop, on again at the
            // master's next bar line once it plays at a tempo the session plays at.
            refusal.refuse("the MIDI clock master", tempo: tempo, instead: "the session waits until it plays within them (then at its next bar line)")
            (needsRebase, keepsPlace) = (true, false)
            return false
        }
        let master = now + leadSeconds * tempo / 60
        let session = sessionQuarters(time)
        rebaseIfNeeded(session: session, master: master)
        return master >= session + offset
    }

    /// Waits until session time `time` is due by the master's clock, or `shouldStop()` says so.
    public func wait(until time: Double, shouldStop: () -> Bool) {
        while !shouldStop() && !isDue(time) { usleep(1000) }
    }

    /// True once the input's server went away: `failure` is then set.
    private func isGone() -> Bool {
        if failure == nil && input.isGone { failure = SessionError(StudioError.wentAway(what)) }
        return failure != nil
    }

    public func poll(step: Int64, into controls: inout [Control]) -> Bool {
        if isGone() { return false }
        drain()
        if follower.isRunning, let tempo = follower.tempo, let control = count.follow(tempo, at: Double(step) * timestep) {
            controls.append(control)
        }
        return true
    }
}
