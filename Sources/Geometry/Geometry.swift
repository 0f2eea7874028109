// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// A 2-D vector: a point or a displacement, in the units its owner states (metres, y up, in
/// the physics and in a `Scene`; pixels, y down, on a `Canvas`). The one place that turns
/// one into the other is the `Pictures` module's `Viewport`.
public struct Vector: Hashable, Sendable, Codable {
    /// Horizontal component; positive to the right.
    public var x: Double
    /// Vertical component; positive upwards in metres, downwards in pixels.
    public var y: Double

    /// Creates a vector from its components.
    @inlinable
    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    /// The zero vector.
    public static let zero = Vector(0, 0)

    /// Euclidean length.
    @inlinable
    public var length: Double { (x * x + y * y).squareRoot() }

    /// True when both components are finite numbers.
    @inlinable
    public var isFinite: Bool { x.isFinite && y.isFinite }

    /// Component-wise sum.
    @inlinable
    public static func + (a: Vector, b: Vector) -> Vector { Vector(a.x + b.x, a.y + b.y) }
    /// Component-wise difference.
    @inlinable
    public static func - (a: Vector, b: Vector) -> Vector { Vector(a.x - b.x, a.y - b.y) }
    /// Scales a vector.
    @inlinable
    public static func * (a: Vector, s: Double) -> Vector { Vector(a.x * s, a.y * s) }
    /// Dot product.
    @inlinable
    public func dot(_ other: Vector) -> Double { x * other.x + y * other.y }
}

/// An axis-aligned rectangle given by its edges (minX ≤ maxX, minY ≤ maxY), in its owner's
/// units: with y up (metres), `minY` is the bottom edge; with y down (pixels), the top edge.
public struct Rect: Hashable, Sendable, Codable {
    /// Left edge.
    public var minX: Double
    /// Bottom edge with y up, top edge with y down.
    public var minY: Double
    /// Right edge.
    public var maxX: Double
    /// The other vertical edge.
    public var maxY: Double

    /// Creates a rectangle from its edges.
    @inlinable
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// Width.
    @inlinable
    public var width: Double { maxX - minX }
    /// Height.
    @inlinable
    public var height: Double { maxY - minY }
    /// Centre point.
    @inlinable
    public var center: Vector { Vector((minX + maxX) / 2, (minY + maxY) / 2) }

    /// True when `point` lies inside the rectangle shrunk by `inset` on every side.
    @inlinable
    public func contains(_ point: Vector, inset: Double = 0) -> Bool {
        point.x >= minX + inset && point.x <= maxX - inset && point.y >= minY + inset && point.y <= maxY - inset
    }

    /// The point inside the rectangle (shrunk by `inset`) nearest to `point`.
    @inlinable
    public func clamp(_ point: Vector, inset: Double = 0) -> Vector {
        Vector(min(max(point.x, minX + inset), maxX - inset), min(max(point.y, minY + inset), maxY - inset))
    }

    /// The smallest rectangle holding both.
    public func union(_ other: Rect) -> Rect {
        Rect(minX: min(minX, other.minX), minY: min(minY, other.minY), maxX: max(maxX, other.maxX), maxY: max(maxY, other.maxY))
    }

    /// The rectangle shrunk by `amount` on every side (grown for a negative `amount`).
    public func inset(by amount: Double) -> Rect {
        Rect(minX: minX + amount, minY: minY + amount, maxX: maxX - amount, maxY: maxY - amount)
    }
}
