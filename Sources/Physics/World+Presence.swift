// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CChipmunk
import Geometry

/// Balls taken out of the world and brought back in (the `balls` control).
///
/// A ball taken out keeps its body (its last position and spin, for the state and the ball's
/// id) but leaves the Chipmunk space: its body and shape are removed, so it collides with
/// nothing, strikes nothing and costs nothing. `WorldState.isIn` carries which balls are in, so
/// a restore (`World.restore`, the form's returns) builds the space with exactly those balls.
/// Both happen between steps, never inside one (the space is unlocked there).
extension World {
    /// True when ball `ball` is in the world (not taken out).
    public func isIn(ball: Int) -> Bool { presence[ball] }

    /// Takes piano ball `ball` out of the space (nothing when it is out already); its velocity
    /// is set to zero, so the rules after each sub-step leave its parked body alone.
    public func takeOut(ball: Int) {
        precondition(ball > 0, "the bass ball cannot leave the world")
        guard presence[ball] else { return }
        cpBodySetVelocity(bodies[ball], cpVect(x: 0, y: 0))
        cpBodySetAngularVelocity(bodies[ball], 0)
        removeFromSpace(ball: ball)
        presence[ball] = false
    }

    /// Puts piano ball `ball` back into the space where its body is (nothing when it is in);
    /// the caller places it (`place(ball:at:velocity:)`, as a drop does).
    public func bringIn(ball: Int) {
        guard !presence[ball] else { return }
        cpSpaceAddBody(space, bodies[ball])
        cpSpaceAddShape(space, shape(ofBall: ball))
        presence[ball] = true
    }

    /// Removes the ball's shape, then its body, from the space (Chipmunk's order).
    func removeFromSpace(ball: Int) {
        cpSpaceRemoveShape(space, shape(ofBall: ball))
        cpSpaceRemoveBody(space, bodies[ball])
    }

    /// The ball's shape: the balls' shapes are the last ones added, one per ball in id order.
    func shape(ofBall ball: Int) -> OpaquePointer {
        shapes[shapes.count - bodies.count + ball]
    }

    /// Sets the bodies to `state` in the space as it is, its contact cache kept: not exact (the
    /// cached impulses warm-start the solver), kept for the test that shows why `restore` rebuilds.
    func setBodies(_ state: WorldState) {
        for (body, saved) in zip(bodies, state.bodies) {
            saved.apply(to: body)
            cpSpaceReindexShapesForBody(space, body)
        }
    }
}
