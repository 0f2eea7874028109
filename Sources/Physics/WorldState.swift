// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CChipmunk
import Geometry

/// Everything a world's balls carry from one step to the next, as Chipmunk holds it: enough to
/// put the world back exactly (`World.restore`).
public struct WorldState: Sendable, Equatable {
    /// One ball's body, in Chipmunk's own values (metres, m/s, radians, rad/s, N, N·m).
    public struct Body: Sendable, Equatable {
        /// Centre of gravity, metres.
        public var position: Vector
        /// Velocity, m/s.
        public var velocity: Vector
        /// Rotation, radians.
        public var angle: Double
        /// Spin, rad/s.
        public var angularVelocity: Double
        /// Force applied for the next step, N (zero between steps in practice).
        public var force: Vector
        /// Torque applied for the next step, N·m.
        public var torque: Double
    }

    /// The balls, index = ball id (0 the bass ball).
    public var bodies: [Body]
    /// Whether each ball is in the world (index = ball id): a ball taken out (`World.takeOut`,
    /// the `balls` control) keeps its body here, and a restore leaves it out of the space.
    public var isIn: [Bool]
}

extension WorldState.Body {
    /// Reads a Chipmunk body.
    init(_ body: OpaquePointer) {
        position = Vector(cpBodyGetPosition(body))
        velocity = Vector(cpBodyGetVelocity(body))
        angle = cpBodyGetAngle(body)
        angularVelocity = cpBodyGetAngularVelocity(body)
        force = Vector(cpBodyGetForce(body))
        torque = cpBodyGetTorque(body)
    }

    /// Writes these values into a Chipmunk body (its position first, so its rotation follows).
    func apply(to body: OpaquePointer) {
        cpBodySetPosition(body, cpVect(position))
        cpBodySetAngle(body, angle)
        cpBodySetVelocity(body, cpVect(velocity))
        cpBodySetAngularVelocity(body, angularVelocity)
        cpBodySetForce(body, cpVect(force))
        cpBodySetTorque(body, torque)
    }
}
