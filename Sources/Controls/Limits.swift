// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Text

/// Ranges shared by several settings, by settings and the live controls, and the limits of flags
/// that are not preset settings. Every other range is written once, in its row of `Settings.all`.
public enum Limits {
    /// Session length, simulated seconds (up to one week).
    public static let duration: ClosedRange<Double> = 0.001...604_800
    /// Note length, seconds.
    public static let noteLength: ClosedRange<Double> = 0.01...20
    /// Impact speeds for velocity curves and minimum hit speeds, m/s (or fractions of the bass speed).
    public static let impactSpeed: ClosedRange<Double> = 0...200
    /// Velocity curve exponent.
    public static let exponent: ClosedRange<Double> = 0.1...10
    /// Lowest register pitch (MIDI) for bass and keys: C0…C7 so every voiced note stays in 0…127.
    public static let register: ClosedRange<Int> = 12...96
    /// Output sample rate, Hz (FluidSynth's range), whole numbers only.
    public static let sampleRate: ClosedRange<Int> = 8_000...96_000
    /// Sound after a session's end (`--tail`), seconds; the sound's own cap on its tail
    /// (`SamplerConfiguration.maximumTailDuration`) is the upper bound.
    public static let tail: ClosedRange<Double> = 0...30
    /// Gravity on the piano balls, m/s²: the `gravity` setting, `--gravity` and the live control.
    public static let gravity = Quantity(range: 0...100, unit: "m/s²")
    /// The bass ball's constant speed, m/s: the `speed` setting, `--speed` and the live control.
    public static let speed = Quantity(range: 0.1...20, unit: "m/s")
    /// Tempo, quarter notes per minute: the `tempo` setting, `--tempo`, the live control and the
    /// tempo a followed master may set.
    public static let tempo = Quantity(range: 20...400, unit: "bpm")

    /// A range with its unit: a value both a preset and a live control set.
    public struct Quantity: Sendable {
        /// The accepted values.
        public let range: ClosedRange<Double>
        /// The SI unit (or bpm), for messages.
        public let unit: String
    }

    /// Largest preset file read, bytes.
    public static let presetFileSize = 1 << 20

    /// "0…100" style text for messages.
    public static func text(_ range: ClosedRange<Double>, unit: String = "") -> String {
        let suffix = unit.isEmpty ? "" : " \(unit)"
        return "\(Format.plain(range.lowerBound))…\(Format.plain(range.upperBound))\(suffix)"
    }

    /// "0…1000" style text for messages.
    public static func text(_ range: ClosedRange<Int>) -> String { "\(range.lowerBound)…\(range.upperBound)" }
}
