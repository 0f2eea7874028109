// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CChipmunk
import CChipmunkPools

extension World {
    /// The balls' state now (between two steps).
    public func state() -> WorldState {
        WorldState(bodies: bodies.map(WorldState.Body.init), isIn: presence)
    }

    /// The balls' state now written into `state`, a state of this world (one body per ball),
    /// in place: nothing is allocated while `state`'s buffers are its own.
    public func state(into state: inout WorldState) {
        precondition(state.bodies.count == bodies.count && state.isIn.count == presence.count,
                     "a state of \(state.bodies.count) balls for a world of \(bodies.count)")
        for (ball, body) in bodies.enumerated() { state.bodies[ball] = WorldState.Body(body) }
        for ball in presence.indices { state.isIn[ball] = presence[ball] }
    }

    /// Puts the balls in `state` in a space as Chipmunk builds it afresh: every ball is taken
    /// out, which drops every contact, cached arbiter and index entry of theirs, and put back
    /// in the order the world was built, numbered as then, so two restores of one state step
    /// identically (exact by construction; setting the bodies in place is not, as Chipmunk's
    /// cached contacts warm-start the solver). Nothing is allocated: the space, its pools and
    /// the bodies stay (the LV2 plugin restores in its real-time thread). The clock
    /// (`stepCount`) and the configuration as last retuned go on.
    /// `state` must come from this world (one body per ball, finite values).
    public func restore(_ state: WorldState) {
        precondition(state.bodies.count == bodies.count, "a state of \(state.bodies.count) balls for a world of \(bodies.count)")
        for ball in bodies.indices where presence[ball] { removeFromSpace(ball: ball) }
        clumsy_chipmunk_renumber(UnsafeMutableRawPointer(space), UInt(shapes.count - bodies.count), substepLength)
        for (ball, body) in bodies.enumerated() {
            let saved = state.bodies[ball]
            cpBodySetPosition(body, cpVect(saved.position))
            cpBodySetVelocity(body, cpVect(saved.velocity))
            cpSpaceAddBody(space, body)
            cpSpaceAddShape(space, shape(ofBall: ball))
        }
        for (body, saved) in zip(bodies, state.bodies) { saved.apply(to: body) }
        for ball in presence.indices {
            presence[ball] = state.isIn[ball]
            if !presence[ball] { removeFromSpace(ball: ball) }
        }
    }

    /// Puts the balls back into the space as they are (`restore` of their state) and returns
    /// that state: what a later `restore` of it steps exactly like. Allocates the state
    /// (`state(into:)` and `restore` do not).
    @discardableResult
    public func rebase() -> WorldState {
        let now = state()
        restore(now)
        return now
    }
}
