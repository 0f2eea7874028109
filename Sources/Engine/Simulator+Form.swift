// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Geometry
import Performance
import Physics
import Theory
#if canImport(Glibc)
import Glibc
#endif

/// The form (`FormPlan`): at each section line, save the world for a letter heard first, or put
/// it back as it was at that letter's first section line.
///
/// A section line is the first step at or after the bar line that starts a section. Saving
/// puts the balls back into the space as they are (`World.restore` of their state), and
/// returning puts the saved balls back: both spans then start from a space that steps as a new
/// one with the same bodies, so with `variation` 0 the section plays again note for note
/// (exactly so when a bar is a whole number of timesteps, as at 120 bpm and 1/240 s). Nothing
/// here allocates (the LV2 plugin plays the form in its real-time thread): the snapshots are
/// written in place and the sections' keys were worked out when the session was built.
extension Simulator {
    /// The degree (1…7) of the chord playing: a change waiting for its beat or bar line counts
    /// once its time has come. Real-time safe.
    public var chordDegree: Int { performer.activeDegree }

    /// The bar playing, 1-based, counted on the clock's bar lines (a tempo change keeps the bars
    /// counted so far): what the LV2 plugin's `bar` output port shows. Real-time safe.
    public var bar: Int { scheduler.clock.bar(at: world.time) + 1 }

    /// The section of the form playing: its place in the form's letters, 1-based (`"AABA"`: 1…4,
    /// then 1 again the next time through), or 0 without a form. Counted from `bar` (the form's
    /// lines are every `bars` bars of the clock), so the two turn together. Real-time safe.
    public var formSection: Int {
        guard let form else { return 0 }
        return (bar - 1) / form.plan.bars % form.plan.sections.count + 1
    }

    /// Called before a step's physics once `formDue` has come (and once at 0 before the opening
    /// notes are delivered): acts when a section line, the bar line of a returning section's
    /// nudge or one of the cadence's moments has come, then sets `formDue` to the next of them.
    func formLine(at step: Int64) {
        guard let progress = form else { return }
        defer { formDue = nextFormDue(progress) }
        let now = world.time
        if let time = progress.nudgeAt, now >= time - 1e-9 {
            world.state(into: &progress.nudged)
            nudge(&progress.nudged, by: progress.plan.variation, random: &progress.nudges)
            world.restore(progress.nudged)
            progress.nudgeAt = nil
        }
        if let ending = progress.ending, now >= ending.time - 1e-9 {
            secondEnding(of: ending.section, at: step, progress: progress)
            progress.ending = nil
        }
        if now >= progress.nextLine - 1e-9 {
            let section = progress.plan.section(progress.number)
            let barSeconds = scheduler.clock.barSeconds
            if progress.heard[section] {
                returnTo(progress.saved[section], at: step)
                if progress.plan.hasNewChanges(progress.number) {
                    // The bass ball leaves the line in a new direction, by the form's own random stream.
                    world.setVelocity(Self.kickDirection(&progress.nudges), ofBall: 0)
                }
                // A travelling tune: this time through in its own key.
                if progress.plan.travel != 0 { transpose(by: progress.plan.semitones(at: progress.number), at: step) }
                if progress.plan.isSecondTime(progress.number), let bar = progress.plan.endingBar {
                    progress.ending = (section, progress.nextLine + Double(bar) * barSeconds)
                } else if let bar = progress.plan.nudgeBar {
                    progress.nudgeAt = progress.nextLine + Double(bar) * barSeconds
                }
            } else {
                transpose(by: progress.plan.semitones(at: progress.number), at: step)
                save(into: &progress.saved[section], at: step)
                progress.heard[section] = true
            }
            progress.number += 1
            // The clock's bar line (as a scene's): after a tempo change the bars go on from where
            // they were, at the new length (`shift` is 0 until then, so this is bars × bar length).
            progress.nextLine = Double(progress.number * progress.plan.bars) * barSeconds - scheduler.clock.shift
            progress.isHoming = false
            progress.isApproaching = false
            progress.gaveCadence = false
            if approach.degree != 0 { endApproach() }
        }
        if progress.plan.cadence { cadence(progress) }
    }

    /// A section's cadence: from one beat before its last bar every bouncer is heard as I's, and
    /// at that bar line I takes over with its root in the bass, loud (as an ending's last bar, in
    /// the section's own key), so each phrase comes home.
    private func cadence(_ progress: FormProgress) {
        let clock = scheduler.clock
        let lastBar = progress.nextLine - clock.barSeconds
        // The end of this step, the bar line itself included (give or take rounding).
        let reach = world.time + plan.world.timestep + 1e-9
        let approachFrom = lastBar - Double(min(progress.plan.approach, progress.plan.bars - 2)) * clock.barSeconds
        if !progress.isApproaching && progress.plan.bars >= 3 && reach >= approachFrom && world.time < lastBar - clock.beatSeconds {
            progress.isApproaching = true
            beginApproach()
        }
        if world.time >= approach.nextAim { aimAgain() }
        if !progress.isHoming && reach >= lastBar - clock.beatSeconds && world.time < progress.nextLine - 1e-9 {
            progress.isHoming = true
            if approach.degree != 0 { endApproach() }
        }
        if !progress.gaveCadence && reach >= lastBar {
            progress.gaveCadence = true
            let line = clock.nextBar(atOrAfter: world.time - plan.world.timestep / 2)
            performer.end(at: line, scheduler: &scheduler)
        }
    }

    /// The earliest time at which `formLine` may have something to do, seconds: the next section
    /// line, nudge or second-time ending, and the cadence's moments still ahead in this section,
    /// each as early as its own test could pass (less `dueMargin`: a call a step early finds
    /// nothing and asks again). Until then no step calls `formLine`.
    private func nextFormDue(_ progress: FormProgress) -> Double {
        var due = progress.nextLine - 1e-9
        if let time = progress.nudgeAt { due = min(due, time - 1e-9) }
        if let ending = progress.ending { due = min(due, ending.time - 1e-9) }
        if progress.plan.cadence {
            let clock = scheduler.clock
            let timestep = plan.world.timestep
            // `cadence(_:)`'s tests: each of its moments passes once the end of a step reaches
            // it; one already reached and not taken (the approach, after its window) waits for
            // the next section line.
            let reach = world.time + timestep + 1e-9
            let lead = timestep + 1e-9
            let lastBar = progress.nextLine - clock.barSeconds
            if !progress.isApproaching && progress.plan.bars >= 3 {
                let from = lastBar - Double(min(progress.plan.approach, progress.plan.bars - 2)) * clock.barSeconds
                due = min(due, Self.ahead(from, reach: reach) - lead)
            }
            if !progress.isHoming { due = min(due, Self.ahead(lastBar - clock.beatSeconds, reach: reach) - lead) }
            if !progress.gaveCadence { due = min(due, Self.ahead(lastBar, reach: reach) - lead) }
            due = min(due, approach.nextAim)
        }
        return due - Self.dueMargin
    }

    /// `moment` while a step's end has yet to reach it, else never (infinity).
    static func ahead(_ moment: Double, reach: Double) -> Double { reach < moment ? moment : .infinity }

    /// The second-time ending of `section` begins: the first time, the balls are nudged (by
    /// `variation`, at least 0.2) and the world is saved there; every later second time returns
    /// to that save, so the second ending is the same each time and unlike the first.
    private func secondEnding(of section: Int, at step: Int64, progress: FormProgress) {
        if progress.endingHeard[section] {
            returnTo(progress.endings[section], at: step)
        } else {
            world.state(into: &progress.nudged)
            nudge(&progress.nudged, by: max(progress.plan.variation, 0.2), random: &progress.nudges)
            world.restore(progress.nudged)
            save(into: &progress.endings[section], at: step)
            progress.endingHeard[section] = true
        }
    }

    /// A new letter begins in the session's key moved by `semitones` (nothing when the harmony
    /// is in it already, or when the session cannot play in it).
    func transpose(by semitones: Int, at step: Int64) {
        // Worked out when the session was built (`preparedKeys`), so nothing is allocated here;
        // looked up by index: a `KeyChange?` would have the Swift runtime make its metadata.
        for index in preparedKeys.indices where preparedKeys[index].semitones == semitones {
            let change = preparedKeys[index].change
            if change.performer.key != performer.configuration.key { changeKey(change, at: world.time) }
            return
        }
        let key = plan.key(transposedBy: semitones)
        guard key != performer.configuration.key, case .success(let change) = plan.keyChange(to: key) else { return }
        changeKey(change, at: world.time)
    }

    /// A snapshot with buffers of its own, of this session's shape (its contents are replaced
    /// at the first save).
    func blankSnapshot() -> FormSnapshot {
        var recent: [Int] = []
        recent.reserveCapacity(Self.loopWindow)
        var balls = world.state()
        balls.isIn = balls.isIn.map { $0 }   // not the world's own buffer
        return FormSnapshot(world: balls, performer: Performer(configuration: plan.performer, voices: plan.voices),
                            scheduler: Scheduler(voices: plan.voices, clock: plan.clock, feel: plan.feel), kicks: kicks, drops: drops,
                            recentDegrees: recent, lastKeyHit: lastKeyHit.map { $0 }, stillSince: stillSince.map { $0 })
    }

    /// Saves the session at this line into `snapshot`, in place: the balls are put back into the
    /// space as they are (`World.restore` of their state), so a return steps exactly as this does.
    private func save(into snapshot: inout FormSnapshot, at step: Int64) {
        world.state(into: &snapshot.world)
        world.restore(snapshot.world)
        snapshot.step = step
        snapshot.performer.assign(from: performer)
        snapshot.scheduler.assign(from: scheduler)
        snapshot.kicks = kicks
        snapshot.drops = drops
        snapshot.lastBouncerHit = lastBouncerHit
        snapshot.recentDegrees.overwrite(with: recentDegrees)
        snapshot.lastKeyHit.overwrite(with: lastKeyHit)
        snapshot.stillSince.overwrite(with: stillSince)
        snapshot.rulePhase = rulePhase
    }

    private func returnTo(_ snapshot: FormSnapshot, at step: Int64) {
        let offset = world.time - Double(snapshot.step) * plan.world.timestep
        world.restore(snapshot.world)
        let heard = (key: performer.configuration.key, degree: performer.activeDegree)
        performer.resume(snapshot.performer, after: offset)
        scheduler.resume(snapshot.scheduler, after: offset, now: world.time)
        if heard.key != performer.configuration.key || heard.degree != performer.activeDegree {
            // The chord the section returns to is announced (a chord event), as at a key change.
            scheduler.changeHarmony(to: performer.activeDegree, at: world.time, always: true)
        }
        kicks = snapshot.kicks
        lastBouncerHit = snapshot.lastBouncerHit + offset
        recentDegrees.overwrite(with: snapshot.recentDegrees)
        drops = snapshot.drops
        for ball in lastKeyHit.indices { lastKeyHit[ball] = snapshot.lastKeyHit[ball] + offset }
        for ball in stillSince.indices {
            let since = snapshot.stillSince[ball]
            stillSince[ball] = since >= 0 ? since + offset : since
        }
        rulePhase = snapshot.rulePhase + (step - snapshot.step)
    }

    /// A seeded, bounded nudge of every ball: moved by up to `variation` × its radius in x and y
    /// (kept in its area), the bass ball's direction turned by up to `variation` × 0.5 rad, each
    /// piano ball's velocity changed by up to `variation` × 0.5 m/s in x and y.
    private func nudge(_ state: inout WorldState, by variation: Double, random: inout SplitMix64) {
        let scale = variation
        let config = world.configuration
        for ball in state.bodies.indices {
            let isBass = ball == 0
            let radius = isBass ? config.bassRadius : config.pianoRadius
            let area = isBass ? config.bassArea : config.pianoArea
            var body = state.bodies[ball]
            let moved = body.position + Vector(random.uniform(-1...1), random.uniform(-1...1)) * (scale * radius)
            body.position = area.clamp(moved, inset: radius)
            if isBass {
                let turn = random.uniform(-1...1) * scale * 0.5
                let v = body.velocity
                body.velocity = Vector(v.x * cos(turn) - v.y * sin(turn), v.x * sin(turn) + v.y * cos(turn))
            } else {
                body.velocity = body.velocity + Vector(random.uniform(-1...1), random.uniform(-1...1)) * (scale * 0.5)
            }
            state.bodies[ball] = body
        }
    }
}
