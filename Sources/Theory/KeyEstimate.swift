// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// A key estimated from how long each pitch class sounds (Krumhansl–Schmuckler), with its confidence.
///
/// The pitch-class durations are correlated (Pearson) with the Krumhansl–Kessler probe-tone profiles
/// rotated to each of the 24 major and minor keys; the best correlation wins. `correlation` (−1…1) is
/// how well the best key fits; `margin` is how far ahead of the runner-up it is (0 means a tie; music21
/// calls a similar number "tonal certainty"). The estimated key is spelled by `Key.preferredSpelling`.
public struct KeyEstimate: Sendable, Hashable {
    /// The best key (major or natural minor).
    public let key: Key
    /// Pearson correlation of the best key's profile with the durations, −1…1.
    public let correlation: Double
    /// The second-best key.
    public let runnerUp: Key
    /// The runner-up's correlation.
    public let runnerUpCorrelation: Double

    /// Best minus runner-up correlation, ≥ 0.
    public var margin: Double { correlation - runnerUpCorrelation }

    /// Krumhansl–Kessler major profile, tonic first.
    public static let majorProfile: [Double] = [6.35, 2.23, 3.48, 2.33, 4.38, 4.09, 2.52, 5.19, 2.39, 3.66, 2.29, 2.88]
    /// Krumhansl–Kessler minor profile, tonic first.
    public static let minorProfile: [Double] = [6.33, 2.68, 3.52, 5.38, 2.60, 3.53, 2.54, 4.75, 3.98, 2.69, 3.34, 3.17]

    /// Creates an estimate from its parts.
    public init(key: Key, correlation: Double, runnerUp: Key, runnerUpCorrelation: Double) {
        self.key = key
        self.correlation = correlation
        self.runnerUp = runnerUp
        self.runnerUpCorrelation = runnerUpCorrelation
    }

    /// Estimates the key from twelve durations (any unit, C first); nil if they are all equal (no key).
    public static func estimate(durations: [Double]) -> KeyEstimate? {
        precondition(durations.count == 12, "twelve pitch-class durations")
        let ranked = correlations(durations: durations).sorted { $0.correlation > $1.correlation }
        guard let first = ranked.first, first.correlation.isFinite else { return nil }
        return KeyEstimate(key: first.key, correlation: first.correlation, runnerUp: ranked[1].key,
                           runnerUpCorrelation: ranked[1].correlation)
    }

    /// The correlation of each of the 24 keys (C major … B major, then C minor … B minor).
    public static func correlations(durations: [Double]) -> [(key: Key, correlation: Double)] {
        var result: [(key: Key, correlation: Double)] = []
        for (scale, profile) in [(Scale.major, majorProfile), (Scale.minor, minorProfile)] {
            for tonic in 0..<12 {
                let rotated = (0..<12).map { profile[(($0 - tonic) % 12 + 12) % 12] }
                result.append((Key(tonic: PitchClass(tonic), scale: scale), pearson(durations, rotated)))
            }
        }
        return result
    }

    /// Pearson correlation of two equally long series; NaN if either is constant.
    static func pearson(_ x: [Double], _ y: [Double]) -> Double {
        let n = Double(x.count)
        let mx = x.reduce(0, +) / n
        let my = y.reduce(0, +) / n
        var sxy = 0.0, sxx = 0.0, syy = 0.0
        for (a, b) in zip(x, y) {
            sxy += (a - mx) * (b - my)
            sxx += (a - mx) * (a - mx)
            syy += (b - my) * (b - my)
        }
        guard sxx > 0, syy > 0 else { return .nan }
        return sxy / (sxx * syy).squareRoot()
    }
}
