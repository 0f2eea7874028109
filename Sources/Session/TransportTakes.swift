// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Engine
import Errors
import Live
import Performance
import Text
#if canImport(Glibc)
import Glibc
#endif

/// `--transport jack`: the session in takes. Each take is a session built at the transport's
/// position (`Simulator.fastForward`: the state of that bar, as the LV2 plugin rebuilds at a
/// relocation) that plays while the transport rolls, until the transport is located elsewhere,
/// the session's length is reached, or Ctrl-C. The sinks hear one recording: the takes one
/// after the other (`TakeSink` moves each take's times there), a tempo event where a take's
/// tempo differs from the one before.
enum TransportTakes {
    static func run(_ run: OutputRun, sync: TransportSync, sinks: [SessionSink], controls: [ControlSource],
                    pace: ((Double) -> Void)?) throws(SessionError) -> Summary {
        let plan = run.plan
        let take = TakeSink(sinks, timestep: plan.world.timestep, tempo: plan.clock.tempo)
        var total = Summary(voices: plan.voices.count)
        var locates: [Double] = []
        let stopped = { run.stop?.isRaised == true }
        do throws(SessionError) {
            while !stopped() && !sync.isGone {
                guard let position = sync.position() else { break }
                let start = position.quarters * 60 / position.tempo
                guard start < Double(plan.stepCount) * plan.world.timestep else {
                    // Past the session's end: silent until the transport is located back.
                    sync.waitForLocate(shouldStop: stopped)
                    continue
                }
                let simulator = Simulator(plan: plan)
                simulator.fastForward(to: max(0, start), tempo: position.tempo, shouldStop: stopped)
                if stopped() { break }
                sync.beginTake(at: simulator.time, tempo: position.tempo, recorded: take.recorded)
                // A take built while the transport rolled catches up with it silently.
                while sync.lag(behind: simulator.time) > plan.world.timestep && !stopped() {
                    simulator.step()
                    simulator.clearEvents()
                }
                if sync.isRelocated { continue }   // located again while this take was built
                sync.beginTake(at: simulator.time, tempo: position.tempo, recorded: take.recorded)
                // A take that is not the session from its start is one a replay would not play.
                if (take.recorded > 0 || simulator.time > 0) && locates.last != take.recorded { locates.append(take.recorded) }
                take.begin(at: simulator.time, tempo: position.tempo)
                sync.wait(until: take.recorded, shouldStop: stopped)
                if sync.isRelocated { continue }
                if stopped() { break }
                let sources = controls + [sync as ControlSource]
                let from = simulator.world.stepCount
                let summary = try simulator.run(into: [take], stop: run.stop, pacer: pace.map { pace in { time in pace(time + sync.shift) } },
                                                controls: ControlSources(sources))
                total.add(summary, steps: summary.steps - from)
                if !sync.isRelocated { break }
            }
            total.duration = take.recorded
            total.wasInterrupted = stopped()
            for sink in sinks { try sink.finish(at: take.recorded) }
            if !locates.isEmpty && run.writesFiles {
                // Said once, where it was played: a replay runs the session straight through.
                let times = locates.prefix(4).map { Format.plain(($0 * 10).rounded() / 10) + " s" }.joined(separator: ", ")
                run.standardError.write("clumsy: the transport was located (the takes begin at \(times)\(locates.count > 4 ? ", …" : "")): "
                    + "the files hold the takes one after the other; clumsy replay of the event log plays the session straight through, "
                    + "so it matches them up to \(Format.plain((locates[0] * 10).rounded() / 10)) s\n")
                run.standardError.flush()
            }
        } catch {
            for sink in sinks { sink.abandon() }
            throw error
        }
        return total
    }
}

extension Summary {
    /// Adds a take's counts (`steps` of its own) to these.
    mutating func add(_ take: Summary, steps: Int64) {
        for index in notes.indices where index < take.notes.count { notes[index] += take.notes[index] }
        escapes += take.escapes
        kicks += take.kicks
        drops += take.drops
        self.steps += steps
    }
}

/// The sinks of a session in takes: each take's events at their place in the recording (its
/// session times plus the recording so far), a take's end not the sinks' (they finish once,
/// after the last take).
final class TakeSink: SessionSink {
    private let sinks: [SessionSink]
    private let timestep: Double
    /// The sinks' tempo (the last tempo control they heard).
    private var tempo: Double
    /// Recorded seconds minus the take's session seconds.
    private var shift = 0.0
    /// Seconds recorded so far: where the next take begins.
    private(set) var recorded = 0.0
    private var shifted: [SessionEvent] = []

    init(_ sinks: [SessionSink], timestep: Double, tempo: Double) {
        self.sinks = sinks
        self.timestep = timestep
        self.tempo = tempo
    }

    /// A take begins at its session time `time`, played at `tempo`: a tempo event when the
    /// sinks' differs.
    func begin(at time: Double, tempo take: Double) {
        shifted.removeAll(keepingCapacity: true)   // a take abandoned before it played
        shift = recorded - time
        guard take != tempo, case .success(let control) = Control.make(name: "tempo", value: take) else { return }
        shifted = [.live(time: recorded, step: Int64((recorded / timestep).rounded()), control: control)]
    }

    func record(_ events: [SessionEvent], through time: Double) throws(SessionError) {
        let steps = Int64((shift / timestep).rounded())
        for event in events { shifted.append(event.moved(by: shift, steps: steps)) }
        for case .live(_, _, .tempo(let bpm)) in shifted { tempo = bpm }
        recorded = max(recorded, time + shift)
        defer { shifted.removeAll(keepingCapacity: true) }
        for sink in sinks { try sink.record(shifted, through: time + shift) }
    }

    func finish(at time: Double) throws(SessionError) {
        recorded = max(recorded, time + shift)
    }

    func abandon() {
        for sink in sinks { sink.abandon() }
    }
}

extension SessionEvent {
    /// The event `seconds` (and `steps` steps) later.
    func moved(by seconds: Double, steps: Int64) -> SessionEvent {
        switch self {
        case .note(var note):
            note.time += seconds
            note.hit += seconds
            return .note(note)
        case .chord(var chord):
            chord.time += seconds
            return .chord(chord)
        case .escape(let time, let ball): return .escape(time: time + seconds, ball: ball)
        case .kick(let time): return .kick(time: time + seconds)
        case .drop(let time, let ball): return .drop(time: time + seconds, ball: ball)
        case .control(let time, let voice, let controller, let value):
            return .control(time: time + seconds, voice: voice, controller: controller, value: value)
        case .live(let time, let step, let control): return .live(time: time + seconds, step: step + steps, control: control)
        }
    }
}
