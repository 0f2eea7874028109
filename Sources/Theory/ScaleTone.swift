// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// A scale tone outside the scale's seven harmonic degrees, such as the blues scale's ♭5.
public struct ScaleTone: Sendable, Hashable, Codable {
    /// Semitones above the tonic, 0…11.
    public let step: Int
    /// Letters above the tonic's letter used to spell it (the blue note ♭5 is 4: in C it is G♭, not F♯).
    public let letterOffset: Int

    /// Creates an added tone `step` semitones above the tonic, spelled `letterOffset` letters above it.
    public init(step: Int, letterOffset: Int) {
        self.step = step
        self.letterOffset = letterOffset
    }
}
