// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Geometry

/// A description of the world to draw, in metres with y up: plain values, nothing of
/// physics engines, MIDI or synthesizers.
public struct Drawing: Sendable {
    /// A walled area (the bass area, the piano area).
    public struct Area: Sendable {
        /// Inside of the walls, metres.
        public var box: Rect
        /// Name shown in the area's corner.
        public var name: String
        /// Creates an area.
        public init(box: Rect, name: String) {
            self.box = box
            self.name = name
        }
    }

    /// A round target: a scale-degree bouncer.
    public struct Bouncer: Sendable {
        /// Centre, metres.
        public var center: Vector
        /// Radius, metres.
        public var radius: Double
        /// Main label (the degree's Roman numeral).
        public var label: String
        /// Second label (the chord symbol).
        public var detail: String
        /// Colour index 0…6 (the degree − 1).
        public var hue: Int
        /// Creates a bouncer.
        public init(center: Vector, radius: Double, label: String, detail: String, hue: Int) {
            self.center = center
            self.radius = radius
            self.label = label
            self.detail = detail
            self.hue = hue
        }
    }

    /// A rectangular target: a key.
    public struct Key: Sendable {
        /// The key's rectangle, metres.
        public var box: Rect
        /// Label (the chord tone it plays: "root", "3rd", …).
        public var label: String
        /// Colour index 0…3 (the chord tone − 1).
        public var hue: Int
        /// Creates a key.
        public init(box: Rect, label: String, hue: Int) {
            self.box = box
            self.label = label
            self.hue = hue
        }
    }

    /// A ball at its start.
    public struct Ball: Sendable {
        /// Start position, metres.
        public var start: Vector
        /// Radius, metres.
        public var radius: Double
        /// True for the bass ball (drawn in the bass colour).
        public var isBass: Bool
        /// Creates a ball.
        public init(start: Vector, radius: Double, isBass: Bool) {
            self.start = start
            self.radius = radius
            self.isBass = isBass
        }
    }

    /// Walled areas.
    public var areas: [Area]
    /// Silent boxes (between the keys).
    public var fillers: [Rect]
    /// Bouncers.
    public var bouncers: [Bouncer]
    /// Keys, left to right.
    public var keys: [Key]
    /// Balls, index 0 the bass ball.
    public var balls: [Ball]
    /// Heading of the legend (the preset's name).
    public var title: String
    /// Further legend lines ("seed 1", "C major", …).
    public var legend: [String]
    /// Wall thickness drawn around each area, metres.
    public var wallThickness: Double

    /// Creates a drawing.
    public init(areas: [Area], fillers: [Rect], bouncers: [Bouncer], keys: [Key], balls: [Ball],
                title: String, legend: [String], wallThickness: Double = 0.05) {
        self.areas = areas
        self.fillers = fillers
        self.bouncers = bouncers
        self.keys = keys
        self.balls = balls
        self.title = title
        self.legend = legend
        self.wallThickness = wallThickness
    }

    /// Everything drawn, metres: areas with their walls and bouncers that overhang them.
    public var bounds: Rect {
        var box = areas.first.map { $0.box.inset(by: -wallThickness) } ?? Rect(minX: 0, minY: 0, maxX: 1, maxY: 1)
        for area in areas { box = box.union(area.box.inset(by: -wallThickness)) }
        for b in bouncers {
            box = box.union(Rect(minX: b.center.x - b.radius, minY: b.center.y - b.radius,
                                 maxX: b.center.x + b.radius, maxY: b.center.y + b.radius))
        }
        return box
    }
}

/// Paths and hits of the first seconds of a session, for `clumsy draw --trace`.
public struct Trace: Sendable {
    /// A hit: where the ball was, how hard it struck.
    public struct Hit: Sendable {
        /// Ball position at the hit, metres.
        public var position: Vector
        /// Velocity 1…127.
        public var velocity: Int
        /// True for the bass ball on a bouncer.
        public var isBass: Bool
        /// Creates a hit.
        public init(position: Vector, velocity: Int, isBass: Bool) {
            self.position = position
            self.velocity = velocity
            self.isBass = isBass
        }
    }

    /// Positions of each ball (index 0 the bass ball) over the traced seconds, metres.
    public var paths: [[Vector]]
    /// The hits to draw: every note-on hit, or, where several fell on the same spot (within
    /// `Trace.hitSpacing`), the last of them; at most `Trace.maximumHits`.
    public var hits: [Hit]
    /// Note-on hits in the traced seconds, drawn or not.
    public var hitCount: Int
    /// Seconds traced.
    public var duration: Double

    /// Hits closer than this, metres, are drawn as one (the last): their dots cover each other.
    public static let hitSpacing = 0.01
    /// Most hit dots a trace draws (about 100 bytes each in an SVG).
    public static let maximumHits = 50_000

    /// Creates a trace; `hitCount` defaults to the hits given.
    public init(paths: [[Vector]], hits: [Hit], hitCount: Int? = nil, duration: Double) {
        self.paths = paths
        self.hits = hits
        self.hitCount = hitCount ?? hits.count
        self.duration = duration
    }
}
