// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Geometry
import Theory

/// A cadence's approach as it goes: the bouncer the bass ball is sent to, and whether it has
/// struck it.
struct CadenceApproach {
    /// The degree of the bouncer whose chord leads home (`Key.cadenceDegree`); 0: no approach.
    var degree = 0
    /// The ball has struck it: its chord holds until the tonic.
    var isHolding = false
    /// When the ball is next turned toward it (each beat until it strikes it), seconds.
    var nextAim = Double.infinity
}

/// With `form.cadence`, where the ball goes before the tonic. From the bar line `form.approach`
/// bars before a section's last bar (3 unless set; from its second bar in a shorter section), the
/// bass ball heads for the bouncer of the chord that leads home (V, vii°, or the mode's own:
/// `Key.cadenceDegree`): it is turned toward that bouncer's centre there, on every beat after,
/// and each time it strikes another bouncer on the way (unless that would send it back into the
/// bouncer it just struck). The chords it strikes on the way are heard as ever. When it strikes the cadence
/// bouncer, that chord takes over as any does (under `bar` changes on the next bar line) and
/// holds: the ball's later strikes re-sound its root until, a beat before the last bar, the
/// homing hears every bouncer as I's. So the chord before each phrase's tonic is one the ball
/// struck, its dominant.
extension Simulator {
    /// The approach begins: the ball turns toward the cadence bouncer of the key playing.
    func beginApproach() {
        let key = performer.configuration.key
        guard let degree = key.cadenceDegree(chords: performer.chords, available: { bouncerCentres[$0] != nil }) else { return }
        approach = CadenceApproach(degree: degree, isHolding: false, nextAim: world.time + scheduler.clock.beatSeconds)
        aim(at: degree, from: nil)
    }

    /// A beat of the approach has passed before the ball struck the cadence bouncer: it is turned
    /// toward it again (from wherever the walls have sent it).
    func aimAgain() {
        approach.nextAim = approach.isHolding ? .infinity : world.time + scheduler.clock.beatSeconds
        if !approach.isHolding { aim(at: approach.degree, from: nil) }
    }

    /// The approach is over (the homing has begun, or a section line has come).
    func endApproach() { approach = CadenceApproach() }

    /// The degree heard for the bass ball's strike of `degree` during the approach, turning the
    /// ball toward the cadence bouncer until it strikes it.
    func approached(_ degree: Int) -> Int {
        if approach.isHolding { return approach.degree }
        if degree == approach.degree {
            approach.isHolding = true
        } else {
            aim(at: approach.degree, from: degree)
        }
        return degree
    }

    /// Turns the bass ball toward the centre of `target`'s bouncer (its speed kept), unless that
    /// heads back into the bouncer of `struck`.
    private func aim(at target: Int, from struck: Int?) {
        guard let centre = bouncerCentres[target] else { return }
        let position = world.position(ofBall: 0)
        let direction = centre - position
        if let struck, let from = bouncerCentres[struck], direction.dot(position - from) <= 0 { return }
        world.setVelocity(direction, ofBall: 0)
    }
}
