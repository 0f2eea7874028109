/// A point in whatever units its owner states (metres in a `Scene`, pixels on a `Canvas`).
public struct Point: Sendable, Hashable {
    /// Horizontal coordinate.
    public var x: Double
    /// Vertical coordinate.
    public var y: Double

    /// Creates a point.
    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }
}

/// An axis-aligned rectangle given by its corners (minX ≤ maxX, minY ≤ maxY).
public struct Box: Sendable, Hashable {
    /// Left edge.
    public var minX: Double
    /// Bottom edge in world units (y up), top edge in pixels (y down).
    public var minY: Double
    /// Right edge.
    public var maxX: Double
    /// The other vertical edge.
    public var maxY: Double

    /// Creates a rectangle from its corners.
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// Width.
    public var width: Double { maxX - minX }
    /// Height.
    public var height: Double { maxY - minY }
    /// Centre.
    public var center: Point { Point((minX + maxX) / 2, (minY + maxY) / 2) }

    /// The smallest rectangle holding both.
    public func union(_ other: Box) -> Box {
        Box(minX: min(minX, other.minX), minY: min(minY, other.minY), maxX: max(maxX, other.maxX), maxY: max(maxY, other.maxY))
    }

    /// The rectangle grown by `amount` on every side.
    public func inset(by amount: Double) -> Box {
        Box(minX: minX + amount, minY: minY + amount, maxX: maxX - amount, maxY: maxY - amount)
    }
}

/// An sRGB colour with alpha, each component 0…1.
public struct Colour: Sendable, Hashable {
    /// Red 0…1.
    public var red: Double
    /// Green 0…1.
    public var green: Double
    /// Blue 0…1.
    public var blue: Double
    /// Opacity 0…1.
    public var alpha: Double

    /// Creates a colour.
    public init(_ red: Double, _ green: Double, _ blue: Double, _ alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A colour from a 0xRRGGBB literal.
    public init(hex: UInt32, alpha: Double = 1) {
        self.init(Double((hex >> 16) & 0xFF) / 255, Double((hex >> 8) & 0xFF) / 255, Double(hex & 0xFF) / 255, alpha)
    }

    /// The same colour with another opacity.
    public func with(alpha: Double) -> Colour { Colour(red, green, blue, alpha) }

    /// Linear blend towards `other` by `amount` 0…1.
    public func mixed(with other: Colour, _ amount: Double) -> Colour {
        let a = max(0, min(1, amount))
        return Colour(red + (other.red - red) * a, green + (other.green - green) * a,
                      blue + (other.blue - blue) * a, alpha + (other.alpha - alpha) * a)
    }
}
