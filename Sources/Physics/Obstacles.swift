// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Geometry

/// A static circle that the bass ball bounces off, tagged with the index of what it stands for.
public struct CircleObstacle: Hashable, Sendable {
    /// Index of this obstacle in the caller's list (the World reports it in contacts).
    public var tag: Int
    /// Centre, metres; may lie on the area's edge (a half or quarter circle shows).
    public var center: Vector
    /// Radius, metres (> 0).
    public var radius: Double

    /// Creates an obstacle.
    public init(tag: Int, center: Vector, radius: Double) {
        self.tag = tag
        self.center = center
        self.radius = radius
    }
}

/// A static rectangular key that the piano balls strike, tagged with the caller's index.
public struct KeyObstacle: Hashable, Sendable {
    /// Index of this key in the caller's list (the World reports it in contacts).
    public var tag: Int
    /// The key's rectangle, metres.
    public var frame: Rect

    /// Creates a key.
    public init(tag: Int, frame: Rect) {
        self.tag = tag
        self.frame = frame
    }
}
