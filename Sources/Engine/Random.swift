// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// SplitMix64: the session's only source of chance. Small, fast, and the same on every platform.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator for `seed`; `stream` picks an independent sequence for one purpose
    /// (layout, kicks, drops) so that changing one kind of choice does not shift the others.
    public init(seed: UInt64, stream: UInt64 = 0) {
        state = seed &+ stream &* 0xD1B5_4A32_D192_ED03
        _ = next()
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in [0, 1) with 53 random bits.
    public mutating func unit() -> Double {
        Double(next() >> 11) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// A uniform double in `range`.
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + unit() * (range.upperBound - range.lowerBound)
    }

    /// A uniform integer in 0..<bound (bound > 0), without modulo bias.
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0)
        let b = UInt64(bound)
        let limit = UInt64.max - UInt64.max % b
        while true {
            let x = next()
            if x < limit { return Int(x % b) }
        }
    }
}

/// The independent random streams of a session.
public enum RandomStream: UInt64 {
    /// Bouncer placement for the scatter layout.
    case layout = 1
    /// The bass ball's launch direction.
    case launch = 2
    /// Piano ball start positions.
    case spawn = 3
    /// Directions of kicks given to the bass ball.
    case kicks = 4
    /// Positions where resting piano balls are dropped again.
    case drops = 5
    /// Nudges of returning sections (`form.variation`).
    case form = 6
}
