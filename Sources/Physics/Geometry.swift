/// A 2-D vector in metres (positions) or metres per second (velocities).
public struct Vector: Hashable, Sendable, Codable {
    /// Horizontal component; positive to the right.
    public var x: Double
    /// Vertical component; positive upwards.
    public var y: Double

    /// Creates a vector from its components.
    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    /// The zero vector.
    public static let zero = Vector(0, 0)

    /// Euclidean length.
    public var length: Double { (x * x + y * y).squareRoot() }

    /// True when both components are finite numbers.
    public var isFinite: Bool { x.isFinite && y.isFinite }

    /// Component-wise sum.
    public static func + (a: Vector, b: Vector) -> Vector { Vector(a.x + b.x, a.y + b.y) }
    /// Component-wise difference.
    public static func - (a: Vector, b: Vector) -> Vector { Vector(a.x - b.x, a.y - b.y) }
    /// Scales a vector.
    public static func * (a: Vector, s: Double) -> Vector { Vector(a.x * s, a.y * s) }
    /// Dot product.
    public func dot(_ other: Vector) -> Double { x * other.x + y * other.y }
}

/// An axis-aligned rectangle in metres, given by its lower-left and upper-right corners.
public struct Rect: Hashable, Sendable, Codable {
    /// Left edge, metres.
    public var minX: Double
    /// Bottom edge, metres.
    public var minY: Double
    /// Right edge, metres.
    public var maxX: Double
    /// Top edge, metres.
    public var maxY: Double

    /// Creates a rectangle from its edges.
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// Width in metres.
    public var width: Double { maxX - minX }
    /// Height in metres.
    public var height: Double { maxY - minY }
    /// Centre point.
    public var center: Vector { Vector((minX + maxX) / 2, (minY + maxY) / 2) }

    /// True when `point` lies inside the rectangle shrunk by `inset` on every side.
    public func contains(_ point: Vector, inset: Double = 0) -> Bool {
        point.x >= minX + inset && point.x <= maxX - inset && point.y >= minY + inset && point.y <= maxY - inset
    }

    /// The point inside the rectangle (shrunk by `inset`) nearest to `point`.
    public func clamp(_ point: Vector, inset: Double = 0) -> Vector {
        Vector(min(max(point.x, minX + inset), maxX - inset), min(max(point.y, minY + inset), maxY - inset))
    }
}

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
