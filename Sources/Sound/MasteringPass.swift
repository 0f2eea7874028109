// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import FileOutput
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Masters the spooled mix and writes the files (the last stage of the audio path:
/// `SynthBank` → `MixBus` → mastering pass): reads the spool back, applies the loudness
/// gain and the true-peak limiter on the calling thread while two helpers measure the mix
/// (`LoudnessEstimator`, `TruePeakMeter`) and write the files, each at its own pace
/// (`SlotPipeline`, a thread per helper). Usually one
/// pass (see `run`). Every file is written under a temporary name and all are renamed at
/// the end; any failure removes them all.
final class MasteringPass {
    /// Largest distance (LU) between the written mix's measured loudness and the target
    /// that is accepted without writing the mix again.
    static let loudnessTolerance = 0.1
    /// Most passes that write the mastered files (each reads the spool once).
    static let masteringPasses = 3
    /// Chunks (65536 frames each) a mastering pass's helpers may be behind its reading thread.
    static let passSlots = 4
    /// The first correction assumes this much loudness per dB of gain (see `run`).
    static let limitedLoudnessSlope = 0.8
    /// Headroom under the true-peak ceiling, dB, for the sample peak of a mix mastered after a stop.
    static let quickStopHeadroom = 1.0

    private let bus: MixBus
    private let mastering: Mastering
    private let rate: Double
    private let mixPath: String
    private let stemPaths: [String]?
    private let format: AudioFileFormat

    /// A pass over what `bus` spooled, writing `mixPath` and, with stems, `stemPaths` (one per part).
    init(bus: MixBus, mastering: Mastering, sampleRate: Double, mixPath: String, stemPaths: [String]?, format: AudioFileFormat) {
        self.bus = bus
        self.mastering = mastering
        self.rate = sampleRate
        self.mixPath = mixPath
        self.stemPaths = stemPaths
        self.format = format
    }

    /// `value` with one decimal ("+3.2", "-1.0"), for the stage lines.
    static func tenths(_ value: Double, signed: Bool = false) -> String {
        let tenths = Int((value * 10).rounded())
        let sign = tenths < 0 ? "-" : signed ? "+" : ""
        return sign + "\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }

    /// Masters and writes the files.
    ///
    /// With a loudness target: the gain is the one the `LimiterPreview` expects (the target
    /// minus the loudness estimated while rendering, plus the limiter's previewed loss); one
    /// pass applies it and the limiter, writes every file and measures the mix (its loudness
    /// with `LoudnessEstimator`, its true peak with `TruePeakMeter`).
    /// The limiter lowers the loudness a little where it acts; when the measured loudness
    /// misses the target by more than `loudnessTolerance`, the files are written again with
    /// the gain corrected by the miss divided by the loudness gained per dB of gain
    /// (`limitedLoudnessSlope` at first, then the slope between the last two passes: more
    /// gain means a little more limiting), at most `masteringPasses` times. When the limiter
    /// does not act, the loudness follows the gain exactly (slope 1).
    ///
    /// After a stop (`quickly`, or `interrupted()` turning true during a pass) there is no
    /// time for the limiter: one static gain brings the loudness estimated while rendering to
    /// the target, lowered if needed so the sample peak stays `quickStopHeadroom` dB under
    /// the ceiling (inter-sample peaks rarely exceed sample peaks by more); the report then
    /// gives the expected loudness and the sample peak after the gain, not a measurement.
    func run(quickly: Bool, interrupted: () -> Bool, stage: (String) -> Void) throws(SoundError) -> MasteringReport {
        // Estimated while rendering, for the quick pass.
        let measured = (bus.preview?.unlimited ?? bus.plainEstimate)?.integratedLoudness ?? -.infinity
        if !quickly, let report = try limitedPasses(interrupted: interrupted, stage: stage) {
            return report
        }
        return try quickPass(measured: measured, stage: stage)
    }

    /// The passes with the limiter (see `run`); nil when `interrupted()` turned true.
    private func limitedPasses(interrupted: () -> Bool, stage: (String) -> Void) throws(SoundError) -> MasteringReport? {
        var gain = 0.0
        var ceiling: Double?
        if mastering.loudness != nil {
            gain = bus.preview?.expectedGain ?? 0
            ceiling = linear(mastering.truePeak - Mastering.limiterMargin)
        }
        var previous: (gain: Double, loudness: Double)?
        for pass in 1...Self.masteringPasses {
            stage("mastering, pass \(pass): gain \(Self.tenths(gain, signed: true)) dB"
                  + (ceiling == nil ? "" : ", limited to \(Self.tenths(mastering.truePeak)) dBTP") + ", writing the files")
            let writers = try openWriters()
            let result: PassResult?
            do {
                result = try LimitingPass(bus: bus, gain: gain, ceiling: ceiling, sampleRate: rate, writers: writers).run(interrupted: interrupted)
            } catch {
                for writer in writers { writer.abandon() }
                throw error
            }
            guard let result else {
                for writer in writers { writer.abandon() }
                return nil
            }
            let miss = (mastering.loudness ?? result.loudness) - result.loudness
            // Loudness gained per dB of gain: below 1 where the limiter acts (0.70–0.92
            // measured on the bundled presets); from the last two passes once there are two.
            var slope = Self.limitedLoudnessSlope
            if result.smallestGain >= 1 {
                slope = 1   // nothing was limited: loudness follows the gain exactly
            } else if let previous, gain != previous.gain {
                slope = min(1, max(0.5, (result.loudness - previous.loudness) / (gain - previous.gain)))
            }
            previous = (gain, result.loudness)
            let corrected = min(Mastering.maximumGain, gain + miss / slope)
            if pass == Self.masteringPasses || !miss.isFinite || abs(miss) <= Self.loudnessTolerance
                || corrected == gain {
                try commit(writers)
                return MasteringReport(loudness: result.loudness, truePeak: result.truePeak, gain: gain,
                                       limiting: result.smallestGain < 1 ? 20 * log10(result.smallestGain) : 0, passes: pass)
            }
            for writer in writers { writer.abandon() }
            gain = corrected
        }
        return nil
    }

    /// The quick pass after a stop (see `run`).
    private func quickPass(measured: Double, stage: (String) -> Void) throws(SoundError) -> MasteringReport {
        let samplePeak = bus.samplePeak
        stage("mastering quickly after the stop: one static gain")
        var gain = 0.0
        if let target = mastering.loudness, measured.isFinite {
            gain = min(Mastering.maximumGain, target - measured)
            if samplePeak > 0 {
                gain = min(gain, mastering.truePeak - Self.quickStopHeadroom - 20 * log10(Double(samplePeak)))
            }
        }
        let writers = try openWriters()
        do {
            try writeScaled(gain: gain, writers: writers)
        } catch {
            for writer in writers { writer.abandon() }
            throw error
        }
        try commit(writers)
        return MasteringReport(loudness: measured.isFinite ? measured + gain : -.infinity,
                               truePeak: samplePeak > 0 ? 20 * log10(Double(samplePeak)) + gain : -.infinity,
                               gain: gain, limiting: 0, passes: 0)
    }

    /// Opens the mix's writer, then one per stem (part order); on failure closes those opened.
    private func openWriters() throws(SoundError) -> [SoundFileWriter] {
        var writers: [SoundFileWriter] = []
        do throws(SoundError) {
            writers.append(try SoundFileWriter(path: mixPath, format: format, bitDepth: mastering.bitDepth,
                                               sampleRate: rate, ditherSeed: 1))
            if let stemPaths {
                for (index, path) in stemPaths.enumerated() {
                    writers.append(try SoundFileWriter(path: path, format: format,
                                                       bitDepth: mastering.bitDepth, sampleRate: rate, ditherSeed: UInt64(2 + index)))
                }
            }
        } catch {
            for writer in writers { writer.abandon() }
            // The directories were there when the render began (`MixRenderer` checks them):
            // one missing now was moved or removed during the run, whatever the timing.
            if case .outputDirectoryMissing(let path) = error {
                let folder = PathName.directory(of: path)
                throw .commitFailed(path: path, reason: "the directory '\(folder)' was moved or removed during the run, so the file was not written")
            }
            throw error
        }
        return writers
    }

    /// Closes every writer, then renames every file into place; on failure removes them all.
    private func commit(_ writers: [SoundFileWriter]) throws(SoundError) {
        do throws(SoundError) {
            for writer in writers { try writer.close() }
            for writer in writers { try writer.commit() }
        } catch {
            for writer in writers { writer.abandon() }
            throw error
        }
    }

    /// The quick pass after a stop: reads the spool(s) back, applies `gain` dB and writes (mix
    /// first, then one file per part), with no limiter and no measurement.
    private func writeScaled(gain decibels: Double, writers: [SoundFileWriter]) throws(SoundError) {
        let gain = Float(linear(decibels))
        let spools = bus.spools
        let tracks = spools.count
        let chunk = 65_536
        var input = [[Float]](repeating: [Float](repeating: 0, count: chunk), count: tracks)
        var mix = [Float](repeating: 0, count: chunk)
        var position: Int64 = 0
        while true {
            var count = 0
            for track in 0..<tracks {
                count = try input[track].withUnsafeMutableBufferPointer { (buffer) throws(SoundError) in
                    try spools[track].read(at: position, into: buffer)
                }
            }
            if count == 0 { break }
            position += Int64(count)
            try mix.withUnsafeMutableBufferPointer { (sum) throws(SoundError) in
                for index in 0..<count { sum[index] = 0 }
                for track in 0..<tracks {
                    try input[track].withUnsafeMutableBufferPointer { (samples) throws(SoundError) in
                        for index in 0..<count {
                            sum[index] += samples[index]
                            samples[index] *= gain
                        }
                        if writers.count > 1 { try writers[track + 1].write(UnsafeBufferPointer(rebasing: samples[0..<count])) }
                    }
                }
                for index in 0..<count { sum[index] *= gain }
                try writers[0].write(UnsafeBufferPointer(rebasing: sum[0..<count]))
            }
        }
    }
}
