// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

#if canImport(Glibc)
import Glibc
#endif

/// Maps an impact speed to a MIDI velocity 1…127: monotone, clamped at both ends.
///
/// `velocity = 1 + 126 × clamp((speed − quietSpeed) / (loudSpeed − quietSpeed), 0, 1) ^ exponent`,
/// rounded to the nearest integer. Speeds are in m/s.
public struct VelocityCurve: Sendable, Hashable, Codable {
    /// Impact speed that gives velocity 1 (and below which every hit is velocity 1), m/s.
    public var quietSpeed: Double
    /// Impact speed that gives velocity 127 (and above which every hit is 127), m/s.
    public var loudSpeed: Double
    /// Shape of the curve: 1 is linear, below 1 lifts soft hits, above 1 favours hard ones.
    public var exponent: Double

    /// Creates a curve; `loudSpeed` must exceed `quietSpeed` and `exponent` must be positive.
    public init(quietSpeed: Double, loudSpeed: Double, exponent: Double = 1) {
        precondition(loudSpeed > quietSpeed && exponent > 0, "invalid velocity curve")
        self.quietSpeed = quietSpeed
        self.loudSpeed = loudSpeed
        self.exponent = exponent
    }

    /// The MIDI velocity (1…127) for an impact at `speed` m/s. NaN maps to 1.
    public func velocity(forSpeed speed: Double) -> Int {
        let span = loudSpeed - quietSpeed
        var fraction = (speed - quietSpeed) / span
        if !(fraction > 0) { fraction = 0 }     // also catches NaN
        if fraction > 1 { fraction = 1 }
        let shaped = exponent == 1 ? fraction : pow(fraction, exponent)
        return 1 + Int((126 * shaped).rounded())
    }

    /// The same curve with both speeds multiplied by `factor` (> 0).
    public func scaled(by factor: Double) -> VelocityCurve {
        VelocityCurve(quietSpeed: quietSpeed * factor, loudSpeed: loudSpeed * factor, exponent: exponent)
    }
}
