// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls

/// A session stepped from outside, one fixed step at a time, for a host that owns the clock
/// (the LV2 plugin steps it inside the host's audio callback).
///
/// The same loop as `run(into:)`: `begin()` is its opening, `step()` one turn of it. Events
/// gather in `stepEvents` until `clearEvents()`; with the capacity reserved at `init` and the
/// scheduler's, a warm step appends without allocating.
extension Simulator {
    /// Plays the opening (the bass's tonic at time 0): its events join `stepEvents`.
    public func begin() {
        hasBegun = true
        performer.start(at: 0, scheduler: &scheduler)
        scheduler.deliver(through: 0, into: &scheduled)
        flush()
        // Like every section line: after what is due at the line has sounded.
        if form != nil { formLine(at: 0) }
    }

    /// Builds the state at session time `time` (to the step at or after it) by simulating
    /// from the start with `tempo` held from there, what it plays dropped: a relocation, the
    /// LV2 plugin's when its host jumps and `--transport jack`'s at a locate. The same position
    /// always holds the same state under the same seed. The summary counts from here on.
    /// `shouldStop` is asked every 1,024 steps (a few seconds of session), so Ctrl-C during a long way
    /// ahead is heard at once; the state is then short of `time`.
    public func fastForward(to time: Double, tempo: Double, shouldStop: () -> Bool = { false }) {
        if tempo != plan.clock.tempo {
            // From the first instant, before the opening (its event is not the caller's to play:
            // a take's sinks or a plugin's host have the tempo already).
            controls.append(.tempo(tempo))
            apply(at: 0)
            clearEvents()
        }
        begin()
        while self.time < time {
            step()
            clearEvents()
            if world.stepCount % 1024 == 0 && shouldStop() { break }
        }
        summary = Summary(voices: plan.voices.count)
    }

    /// Applies `control` at the start of the next step, as a live control source would.
    public func queue(_ control: Control) {
        queued.append(control)
    }

    /// One fixed timestep (the queued controls first, after the step's scenes, as `run`
    /// applies live controls after them): its events join `stepEvents`.
    public func step() {
        let step = world.stepCount
        if playsScenes && world.time >= sceneDue { cueScenes(at: step) }
        if !queued.isEmpty {
            controls.append(contentsOf: queued)
            queued.removeAll(keepingCapacity: true)
        }
        turn(at: step)
    }

    /// Simulated time after the last step, seconds.
    public var time: Double { world.time }

    /// The events of the steps since the last `clearEvents()`, in time order.
    public var stepEvents: [SessionEvent] { events }

    /// Forgets the events taken (keeping the storage).
    public func clearEvents() {
        events.removeAll(keepingCapacity: true)
    }

    /// Ends every sounding note and delivers what is queued up to `time` (the session ends).
    public func finish(at time: Double) {
        scheduler.finish(at: time, into: &scheduled)
        flush()
    }
}
