// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Geometry

/// What a ball struck.
public enum ContactTarget: Hashable, Sendable {
    /// A bouncer, by its `CircleObstacle.tag`.
    case bouncer(Int)
    /// A key, by its `KeyObstacle.tag`.
    case key(Int)
    /// A side wall or the ceiling of the ball's area (reported only with `recordsWallContacts`).
    case wall
    /// The floor of the ball's area, or a filler between the keys (only with `recordsWallContacts`).
    case floor
}

/// One first contact between a ball and a bouncer, a key (or a wall or floor), as the physics saw it.
public struct Contact: Hashable, Sendable {
    /// Simulated time of the contact, seconds: the end of the sub-step that found it (the
    /// time the world has reached once that `cpSpaceStep` returns).
    public var time: Double
    /// The ball: 0 is the bass ball, 1…N the piano balls.
    public var ball: Int
    /// What it struck.
    public var target: ContactTarget
    /// Impact speed, m/s: the relative velocity along the contact normal just before impact.
    public var speed: Double

    /// Creates a contact.
    public init(time: Double, ball: Int, target: ContactTarget, speed: Double) {
        self.time = time
        self.ball = ball
        self.target = target
        self.speed = speed
    }
}

/// A ball found outside its area (or with a non-finite position) and put back.
public struct Escape: Hashable, Sendable {
    /// Simulated time, seconds: the end of the sub-step after which it was found.
    public var time: Double
    /// The ball: 0 is the bass ball, 1…N the piano balls.
    public var ball: Int
    /// Where it was found, metres (may be non-finite).
    public var position: Vector

    /// Creates an escape record.
    public init(time: Double, ball: Int, position: Vector) {
        self.time = time
        self.ball = ball
        self.position = position
    }
}
