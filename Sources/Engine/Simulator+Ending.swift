// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Performance

/// The ending as it goes: whether the bass ball is heard as going home yet, and whether I's
/// root has been given its last bar line.
struct EndingProgress {
    var plan: EndingPlan
    /// From one beat before the last bar: every bouncer struck is heard as I's.
    var isHoming = false
    /// The last bar line has been given I's root.
    var gaveRoot = false
}

/// An ending (`EndingPlan`): the session's last bar is on the tonic chord. From one beat before
/// it, every bouncer the bass ball strikes is heard as I's (so no chord change can fall on or
/// after the last bar line); at the last bar line the session's home key returns (a section in
/// another key goes home) and I's root sounds in the bass, loud, as at the start. The physics
/// stops at the end of the last bar, and the notes sounding then ring `ring` seconds
/// (`Scheduler.finish(at:ringing:into:)`, called by `run`).
extension Simulator {
    /// True from one beat before the last bar: bouncers are heard as I's.
    var isHoming: Bool { (ending?.isHoming ?? false) || (form?.isHoming ?? false) }

    /// Called before a step's physics once `endingDue` has come, after the form's line: turns
    /// home when the step reaches one beat before the last bar, and gives the last bar line I's
    /// root; then sets `endingDue` to the next of the two (the end of a step reaching it, less
    /// `dueMargin`), or to infinity.
    func endingLine(at step: Int64) {
        guard var progress = ending, !progress.gaveRoot else {
            endingDue = .infinity
            return
        }
        defer {
            endingDue = progress.gaveRoot ? .infinity
                : (progress.isHoming ? progress.plan.lastBar : progress.plan.homeFrom) - plan.world.timestep - 1e-9 - Self.dueMargin
        }
        // The end of this step, the bar line itself included (give or take rounding).
        let reach = world.time + plan.world.timestep + 1e-9
        if !progress.isHoming && reach >= progress.plan.homeFrom {
            progress.isHoming = true
        }
        if reach >= progress.plan.lastBar {
            progress.gaveRoot = true
            transpose(by: 0, at: step)
            // The root sounds on the clock's bar line itself, the one a bass hit of the bar before
            // asked for when chords change on the bar (this step's hits come at its end, later).
            let line = scheduler.clock.nextBar(atOrAfter: world.time - plan.world.timestep / 2)
            performer.end(at: line, scheduler: &scheduler)
        }
        ending = progress
    }

    /// How the session ended: its last bar and the chord playing.
    func ended() -> Ended? {
        guard let plan = ending?.plan else { return nil }
        let chord = performer.chordEvent(degree: performer.activeDegree, at: world.time)
        return Ended(bar: plan.bars, numeral: chord.numeral, name: chord.name)
    }
}
