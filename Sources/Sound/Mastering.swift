// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Vocabulary
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a rendered mix is finished: loudness normalisation, a true-peak ceiling, and the
/// sample format of WAV and FLAC files.
public struct Mastering: Sendable, Hashable {
    /// Target integrated loudness in LUFS (EBU R128), −40…0; nil = no normalisation and no
    /// limiter (the file holds the synthesizers' level as rendered).
    public var loudness: Double?
    /// True-peak ceiling in dBTP, −9…0, kept by a look-ahead limiter after the loudness gain.
    public var truePeak: Double
    /// Sample format of WAV and FLAC files (Ogg Vorbis ignores it).
    public var bitDepth: BitDepth

    /// Defaults: −16 LUFS, −1 dBTP, 24-bit.
    public init(loudness: Double? = -16, truePeak: Double = -1, bitDepth: BitDepth = .standard) {
        self.loudness = loudness
        self.truePeak = truePeak
        self.bitDepth = bitDepth
    }

    /// Accepted loudness targets, LUFS.
    public static let loudnessRange: ClosedRange<Double> = -40...0
    /// Accepted true-peak ceilings, dBTP.
    public static let truePeakRange: ClosedRange<Double> = -9...0
    /// The limiter aims this far (dB) under the ceiling: its 16-tap interpolator and other
    /// meters' (libebur128's, ffmpeg's) estimate inter-sample peaks slightly differently.
    public static let limiterMargin = 0.3
    /// The largest loudness gain applied, dB (a near-silent render is not amplified further).
    public static let maximumGain = 60.0

    /// Checks the ranges.
    /// - Throws: `SoundError.invalidConfiguration` naming `loudness` or `truePeak`.
    public func validate() throws(SoundError) {
        if let loudness, !(loudness.isFinite && Self.loudnessRange.contains(loudness)) {
            throw .invalidConfiguration(field: "loudness", value: "\(loudness)", accepted: "-40…0 LUFS")
        }
        if !(truePeak.isFinite && Self.truePeakRange.contains(truePeak)) {
            throw .invalidConfiguration(field: "truePeak", value: "\(truePeak)", accepted: "-9…0 dBTP")
        }
    }
}

/// What mastering did to a render, measured on the written mix: the loudness by
/// `LoudnessEstimator` (BS.1770's filters and gates, within 0.01 LU of libebur128), the true
/// peak exactly as libebur128 measures it (`TruePeakMeter`).
public struct MasteringReport: Sendable, Hashable, CustomStringConvertible {
    /// Integrated loudness of the written mix, LUFS (−infinity when silent).
    public var loudness: Double
    /// True peak of the written mix, dBTP (−infinity when silent).
    public var truePeak: Double
    /// The static gain applied to the whole mix (and every stem), dB.
    public var gain: Double
    /// The deepest gain reduction of the true-peak limiter, dB (0 = it never acted).
    public var limiting: Double
    /// Passes that wrote the mastered files (the last one kept); 0 = the quick pass after a
    /// stop, whose loudness and peak are expected values, not measurements.
    public var passes: Int = 1

    /// "-16.0 LUFS, -1.2 dBTP" (ASCII, as sox and ffmpeg print it: a terminal's user greps and
    /// pastes it), or "silent".
    public var description: String {
        guard loudness.isFinite else { return "silent" }
        return decibels(loudness) + " LUFS, " + decibels(truePeak) + " dBTP"
    }
}

/// One decimal, an ASCII hyphen-minus for negative values ("-inf" and "inf" when not finite).
func decibels(_ value: Double) -> String {
    guard value.isFinite else { return value < 0 ? "-inf" : "inf" }
    let tenths = Int((abs(value) * 10).rounded())
    let sign = value < 0 && tenths != 0 ? "-" : ""
    return sign + "\(tenths / 10).\(tenths % 10)"
}

/// 10^(dB/20).
func linear(_ decibels: Double) -> Double { pow(10, decibels / 20) }
