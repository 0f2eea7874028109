// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Geometry

/// Everything the physics world needs, in SI units, already validated by the caller.
///
/// The World trusts these values: Debian's Chipmunk is a debug build that aborts the
/// process on NaN, zero mass or zero radius, so callers validate first
/// (`WorldConfiguration.problems` lists what is wrong, for a programmer's precondition).
public struct WorldConfiguration: Sendable, Hashable {
    /// Chipmunk's spatial hash index settings.
    public struct SpatialHash: Sendable, Hashable {
        /// Cell size, metres.
        public var cellSize: Double
        /// Number of hash buckets.
        public var cells: Int

        /// Creates the settings.
        public init(cellSize: Double, cells: Int) {
            self.cellSize = cellSize
            self.cells = cells
        }
    }

    /// Where the bass ball lives, metres. Walls surround it.
    public var bassArea: Rect
    /// Where the piano balls live, metres. Walls surround it.
    public var pianoArea: Rect
    /// The static bouncers inside the bass area.
    public var bouncers: [CircleObstacle]
    /// The static keys inside the piano area (usually on its floor).
    public var keys: [KeyObstacle]

    /// Bass ball start position, metres.
    public var bassStart: Vector
    /// Bass ball start velocity, m/s (its length is the bass speed).
    public var bassVelocity: Vector
    /// Bass ball radius, metres.
    public var bassRadius: Double
    /// The bass ball's constant speed, m/s: renormalised after every sub-step.
    public var bassSpeed: Double

    /// Piano ball start positions, metres (one ball each).
    public var pianoStarts: [Vector]
    /// Piano ball radius, metres.
    public var pianoRadius: Double
    /// Piano ball restitution (elasticity), 0…1; keys and walls have 1.
    public var pianoRestitution: Double
    /// Piano ball friction coefficient (0 = frictionless).
    public var pianoFriction: Double
    /// Whether piano balls collide with each other (false: they pass through one another
    /// and meet only keys and walls — a rain instead of a pile, and far cheaper for swarms).
    public var pianoBallsCollide: Bool = true
    /// Silent static boxes in the piano area (no contacts reported), e.g. filling the gaps
    /// between keys so that small balls cannot wedge into them.
    public var fillers: [Rect] = []
    /// Whether balls striking walls and the floor are reported as contacts (for percussion).
    /// Off by default: it adds collision callbacks and changes nothing else.
    public var recordsWallContacts = false
    /// Use Chipmunk's spatial hash instead of its bounding-box tree: (cell size in metres,
    /// number of cells). Faster for many balls of one size; nil keeps the tree.
    public var spatialHash: SpatialHash?
    /// Downward acceleration of the piano balls, m/s² (9.81 = Earth). The bass ball ignores it.
    public var gravity: Double

    /// The fixed timestep, seconds. Contacts are stamped with the end time of the sub-step that found them.
    public var timestep: Double
    /// Chipmunk steps per timestep (≥ 1); see `WorldConfiguration.substeps(…)`.
    public var substeps: Int
    /// Chipmunk solver iterations per sub-step (default 10).
    public var iterations: Int
    /// Seconds of rest after which Chipmunk puts a body to sleep; nil disables sleeping.
    public var sleepTimeThreshold: Double?

    /// Creates a configuration; every value is used as given.
    public init(bassArea: Rect, pianoArea: Rect, bouncers: [CircleObstacle], keys: [KeyObstacle],
                bassStart: Vector, bassVelocity: Vector, bassRadius: Double, bassSpeed: Double,
                pianoStarts: [Vector], pianoRadius: Double, pianoRestitution: Double, pianoFriction: Double,
                gravity: Double, timestep: Double, substeps: Int, iterations: Int = 10,
                sleepTimeThreshold: Double? = nil) {
        self.bassArea = bassArea
        self.pianoArea = pianoArea
        self.bouncers = bouncers
        self.keys = keys
        self.bassStart = bassStart
        self.bassVelocity = bassVelocity
        self.bassRadius = bassRadius
        self.bassSpeed = bassSpeed
        self.pianoStarts = pianoStarts
        self.pianoRadius = pianoRadius
        self.pianoRestitution = pianoRestitution
        self.pianoFriction = pianoFriction
        self.gravity = gravity
        self.timestep = timestep
        self.substeps = substeps
        self.iterations = iterations
        self.sleepTimeThreshold = sleepTimeThreshold
    }

    /// The fastest a piano ball can move, m/s: a fall through the whole piano area under
    /// `gravity`, with 10 % headroom. The World clamps piano balls to this speed, so
    /// solver energy drift can never accumulate.
    public var pianoSpeedLimit: Double {
        Self.pianoSpeedLimit(gravity: gravity, height: pianoArea.height)
    }

    /// `pianoSpeedLimit` for a piano area `height` metres high under `gravity` m/s².
    public static func pianoSpeedLimit(gravity: Double, height: Double) -> Double {
        max(1.1 * (2 * gravity * height).squareRoot(), 0.5)
    }

    /// Sub-steps needed so that no ball moves more than half the smallest radius (or key
    /// half-thickness) per Chipmunk step: two balls closing head-on then move at most one
    /// radius towards each other per step, so no ball can pass through another, a key, a
    /// bouncer or a wall between two steps.
    public static func substeps(timestep: Double, fastestSpeed: Double, smallestRadius: Double) -> Int {
        let travel = fastestSpeed * timestep
        let allowed = 0.5 * smallestRadius
        guard travel.isFinite, allowed > 0 else { return 1 }
        return max(1, Int((travel / allowed).rounded(.up)))
    }

    /// What is wrong with these values for Chipmunk (empty when they are safe).
    public var problems: [String] {
        var found: [String] = []
        func check(_ ok: Bool, _ what: String) { if !ok { found.append(what) } }
        check(bassArea.width > 0 && bassArea.height > 0, "bass area is empty")
        check(pianoArea.width > 0 && pianoArea.height > 0, "piano area is empty")
        check(bassRadius > 0 && bassRadius.isFinite, "bass radius must be positive")
        check(pianoRadius > 0 && pianoRadius.isFinite, "piano radius must be positive")
        check(bassSpeed > 0 && bassSpeed.isFinite, "bass speed must be positive")
        check(gravity >= 0 && gravity.isFinite, "gravity must be finite and ≥ 0")
        check(timestep > 0 && timestep.isFinite, "timestep must be positive")
        check(substeps >= 1, "substeps must be ≥ 1")
        check(iterations >= 1, "iterations must be ≥ 1")
        check((0...1).contains(pianoRestitution), "piano restitution must be in 0…1")
        check(pianoFriction >= 0 && pianoFriction.isFinite, "piano friction must be ≥ 0")
        check(bassStart.isFinite && bassVelocity.isFinite, "bass start must be finite")
        check(pianoStarts.allSatisfy(\.isFinite), "piano starts must be finite")
        check(bouncers.allSatisfy { $0.radius > 0 && $0.radius.isFinite && $0.center.isFinite }, "bouncers need a positive radius")
        check(keys.allSatisfy { $0.frame.width > 0 && $0.frame.height > 0 }, "keys need a positive size")
        check(fillers.allSatisfy { $0.width > 0 && $0.height > 0 }, "fillers need a positive size")
        return found
    }
}
