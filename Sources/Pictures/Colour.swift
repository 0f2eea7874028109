// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

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
