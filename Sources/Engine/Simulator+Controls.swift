// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// Live controls applied to the running session (OSC today; any live control later).
///
/// The simulator polls its `ControlSource` at the start of every step and, when something
/// came, calls `apply(at:)` before the step's physics: each control is logged as a
/// `.control` event with that step, so a replay applies it at exactly the same point.
extension Simulator {
    /// Applies the polled controls at the start of `step` and logs each.
    func apply(at step: Int64) {
        let now = world.time
        for control in controls {
            if case .key(let key) = control {
                // Checked where it came from (OSC, the replayed log); one the session cannot
                // play is dropped here unlogged, so the log only holds changes that happened.
                // The harmony from here on; notes queued for later are played in the new key.
                // (No `KeyChange?` held across the switch below: the Swift runtime would make
                // that type's metadata at the first control, allocating in the plugin's run().)
                // A scene's key was worked out when the session was built (`preparedKeys`).
                let change: KeyChange
                if let index = preparedKeys.firstIndex(where: { $0.change.performer.key == key }) {
                    change = preparedKeys[index].change
                } else if case .success(let resolved) = plan.keyChange(to: key) {
                    change = resolved
                } else {
                    continue
                }
                events.append(.live(time: now, step: step, control: control))
                changeKey(change, at: now)
                continue
            }
            guard plan.rejection(of: control) == nil else {
                continue   // likewise: a voice the session has not, more balls than it has
            }
            events.append(.live(time: now, step: step, control: control))
            switch control {
            case .gravity(let value):
                retune(gravity: value, speed: world.configuration.bassSpeed)
            case .speed(let value):
                retune(gravity: world.configuration.gravity, speed: value)
            case .kick:
                kickBass(at: now)
            case .drop:
                for ball in 1..<lastKeyHit.count where world.isIn(ball: ball) { dropBall(ball, at: now) }
            case .tempo(let bpm):
                // The grid, beats and bars from here on; the sinks follow it too (the MIDI
                // clock and the MIDI file's tempo map).
                performer.changeTempo(stretch: scheduler.clock.tempo / bpm, at: now)
                scheduler.changeTempo(to: bpm, at: now)
                // The form's next section line is a bar line of the clock: at the new bar length
                // (a host's tempo applied at the first step moves the first line, as --tempo would).
                if let progress = form {
                    progress.nextLine = Double(progress.number * progress.plan.bars) * scheduler.clock.barSeconds - scheduler.clock.shift
                }
            case .key:
                break   // above
            case .level(let name, let value):
                // The voice's CC7 on each of its channels, as every sink plays a controller.
                guard let voice = plan.voice(named: name) else { break }
                events.append(.control(time: now, voice: voice, controller: 7, value: value))
            case .balls(let count):
                setBalls(count, at: now)
            case .chord(let degree):
                performer.changeChord(to: degree, at: now, scheduler: &scheduler)
            case .lift:
                if let idlest = idlestBall() { dropBall(idlest, at: now) }
            case .place(let thousandths):
                if let idlest = idlestBall() { dropBall(idlest, at: now, across: Double(thousandths) / 1000) }
            }
        }
        controls.removeAll(keepingCapacity: true)
        // A control may move what the form and the scenes wait for (a tempo moves the bar lines):
        // each looks again at the next step.
        if form != nil { formDue = -.infinity }
        sceneDue = -.infinity
    }

    /// The piano ball in play longest without a key hit, if any is in play.
    func idlestBall() -> Int? {
        var idlest: Int?
        for ball in 1..<max(lastKeyHit.count, 1) where world.isIn(ball: ball) {
            if idlest.map({ lastKeyHit[ball] < lastKeyHit[$0] }) ?? true { idlest = ball }
        }
        return idlest
    }

    /// Gravity (m/s²) and the bass ball's speed (m/s) from now on, with the sub-steps they
    /// need. The world holds the one copy of each.
    func retune(gravity: Double, speed: Double) {
        let substeps = plan.substeps(gravity: gravity, speed: speed)
        world.retune(gravity: gravity, bassSpeed: speed, substeps: substeps,
                     sleepTimeThreshold: plan.sleepTimeThreshold(gravity: gravity, substeps: substeps))
    }

    /// Piano balls 1…`count` in play, the others out of the world: those beyond leave first,
    /// then each coming back is dropped from a seeded spot (in id order, so the drops' random
    /// stream is drawn the same way every time).
    func setBalls(_ count: Int, at now: Double) {
        for ball in stride(from: lastKeyHit.count - 1, to: count, by: -1) { world.takeOut(ball: ball) }
        for ball in 1..<(count + 1) where !world.isIn(ball: ball) {
            world.bringIn(ball: ball)
            dropBall(ball, at: now)
        }
    }

    /// The harmony from `now` on in the key of `change` (a live key change, or a section's own
    /// key): notes queued for later are played in the new key.
    func changeKey(_ change: KeyChange, at now: Double) {
        performer.changeKey(to: change.harmony, at: now, scheduler: &scheduler)
        for (voice, derivation) in change.derived {
            scheduler.changeDerivation(of: voice, to: derivation)
        }
    }
}
