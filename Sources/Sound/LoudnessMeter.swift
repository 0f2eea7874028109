// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CEBUR128
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// EBU R128 / ITU-R BS.1770 loudness of a stereo stream, measured by libebur128
/// (integrated loudness from its histogram, so memory stays flat however long the
/// stream; optionally the true peak, 4× oversampled). Owns the `ebur128_state`. The
/// reference the tests hold `LoudnessEstimator` and `TruePeakMeter` to; a render measures
/// with those (libebur128's loudness took 20 ns a frame, the estimator's 8 ns).
final class LoudnessMeter: @unchecked Sendable {
    private var state: UnsafeMutablePointer<ebur128_state>?

    /// A meter for interleaved stereo at `sampleRate` Hz.
    init(sampleRate: Double, truePeak: Bool) throws(SoundError) {
        var mode = EBUR128_MODE_I.rawValue | EBUR128_MODE_HISTOGRAM.rawValue
        if truePeak { mode |= EBUR128_MODE_TRUE_PEAK.rawValue }
        guard let created = ebur128_init(2, UInt(sampleRate.rounded()), Int32(bitPattern: mode)) else {
            throw .synthesizerFailed(operation: "start the loudness meter (libebur128)", messages: [])
        }
        state = created
    }

    deinit {
        ebur128_destroy(&state)
    }

    /// Adds interleaved stereo frames (full scale ±1).
    func add(_ samples: UnsafeBufferPointer<Float>) {
        guard samples.count >= 2 else { return }
        ebur128_add_frames_float(state, samples.baseAddress, samples.count / 2)
    }

    /// Integrated loudness in LUFS; −infinity for silence.
    var integratedLoudness: Double {
        var value = -Double.infinity
        if ebur128_loudness_global(state, &value) != EBUR128_SUCCESS.rawValue { return -.infinity }
        return value
    }

    /// True peak over both channels in dBTP (−infinity for silence); needs `truePeak: true`.
    var truePeak: Double {
        var peak = 0.0
        for channel in 0..<UInt32(2) {
            var value = 0.0
            if ebur128_true_peak(state, channel, &value) == EBUR128_SUCCESS.rawValue { peak = max(peak, value) }
        }
        return peak > 0 ? 20 * log10(peak) : -.infinity
    }
}

/// The true peak of a stereo stream exactly as libebur128 measures it over the whole
/// stream (its 4× oversampling interpolator below 96 kHz, 2× below 192 kHz), while
/// running the interpolator only where the result can change.
///
/// libebur128's interpolator is a polyphase FIR filter: each interpolated value is a
/// weighted sum of the last few input frames, so it is at most `bound` (the largest sum of
/// |coefficients| of a phase) times their largest |sample|; and every input sample is
/// itself a value of the interpolated signal, so the largest |sample| seen is a lower bound
/// of the true peak. Chunks wait in a window of `windowChunks` before they are decided, so
/// that bound already knows the loudest samples a little ahead. A chunk whose sample peak,
/// with that of the frames before it that the filter still holds, times `bound` stays at or
/// under both the largest true peak found so far and the largest sample seen cannot raise
/// the result and is skipped. Before a chunk that follows a skipped one, the frames the
/// filter holds are fed again (their own interpolated values are not counted), so every
/// value counted is the value libebur128 computes on the whole stream: the result is
/// identical (tested).
///
/// When the library is recognised as libebur128 1.2's design, a chunk that passes the bound
/// is screened once more before libebur128 runs on it: the same interpolation in single
/// precision, eight frames at a time, gives each value within far less than
/// `screenTolerance` of libebur128's (which sums in double precision, one value at a time);
/// only a chunk whose screened peak could still reach the result is given to libebur128.
/// Measured on 600 s of `default`, mastered: the bound leaves 2158 of 25926 chunks (with the
/// looser bound of an unknown library version, 6545), the screen 12 of those; interpolating
/// every frame in libebur128 costs 1.6 s of CPU.
final class TruePeakMeter: @unchecked Sendable {
    private var state: UnsafeMutablePointer<ebur128_state>?
    /// Largest |interpolated value| per largest |input sample| of the filter's window.
    let bound: Float
    /// Frames per decision.
    static let chunkFrames = 1024
    /// Chunks held before their decision (256 KB).
    static let windowChunks = 32
    /// Frames fed again before a chunk that follows a skipped one: more than the longest
    /// delay line of libebur128's interpolators (13 frames at 4×, 25 at 2×).
    static let contextFrames = 32
    private var peak: Double = 0
    /// The largest |sample| added so far (a lower bound of the true peak).
    private var loudestSample: Float = 0
    private var history = [Float](repeating: 0, count: 2 * TruePeakMeter.contextFrames)
    private var historyFrames = 0
    private var previousFed = true
    private var pending: [Float] = []
    /// Whole chunks waiting for their decision, oldest first, with their sample peaks.
    private var window: [[Float]] = []
    private var windowPeaks: [Float] = []
    private var spare: [[Float]] = []
    /// Chunks run through the interpolator, and all chunks (for tests and measurements).
    private(set) var interpolatedChunks = 0, chunks = 0
    /// Chunks that passed the bound and were screened (for tests and measurements).
    private(set) var screenedChunks = 0
    /// libebur128's phases as (delay in frames, coefficient) pairs, when it is the known
    /// design (nil: no screening, the bound alone decides).
    let screen: [[(delay: Int, coefficient: Float)]]?
    /// A screened value is within this fraction of `bound` times the window's largest |sample|
    /// of libebur128's value (single-precision rounding of at most 25 terms is under 2e-6 of it).
    static let screenTolerance: Float = 1e-5
    private var planar: [Float] = []

    /// A meter for interleaved stereo at `sampleRate` Hz.
    init(sampleRate: Double) throws(SoundError) {
        let rate = UInt(sampleRate.rounded())
        guard let created = ebur128_init(2, rate, Int32(bitPattern: EBUR128_MODE_TRUE_PEAK.rawValue)) else {
            throw .synthesizerFailed(operation: "start the true-peak meter (libebur128)", messages: [])
        }
        state = created
        (bound, screen) = try Self.measureBound(sampleRate: rate)
        pending.reserveCapacity(2 * Self.chunkFrames)
    }

    deinit {
        ebur128_destroy(&state)
    }

    /// libebur128 1.2's interpolator: 49 taps of a Hann-windowed sinc, 4× below 96 kHz and 2×
    /// below 192 kHz (`interp_create`); returns each phase's sum of |coefficients|, each
    /// delay's largest |coefficient| over the phases, and each phase's taps as (delay in
    /// input frames, coefficient) (nil: no interpolation).
    static func designedInterpolator(sampleRate: UInt)
        -> (phaseSums: [Double], delayMaxima: [Double], phases: [[(delay: Int, coefficient: Double)]])? {
        let factor = sampleRate < 96_000 ? 4 : sampleRate < 192_000 ? 2 : 0
        guard factor > 0 else { return nil }
        let taps = 49
        var phaseSums = [Double](repeating: 0, count: factor)
        var delayMaxima = [Double](repeating: 0, count: (taps + factor - 1) / factor)
        var phases = [[(delay: Int, coefficient: Double)]](repeating: [], count: factor)
        for j in 0..<taps {
            let m = Double(j) - Double(taps - 1) / 2
            var c = 1.0
            if abs(m) > 0.000001 { c = sin(m * Double.pi / Double(factor)) / (m * Double.pi / Double(factor)) }
            c *= 0.5 * (1 - cos(2 * Double.pi * Double(j) / Double(taps - 1)))
            guard abs(c) > 0.000001 else { continue }
            phaseSums[j % factor] += abs(c)
            delayMaxima[j / factor] = max(delayMaxima[j / factor], abs(c))
            phases[j % factor].append((j / factor, c))
        }
        return (phaseSums, delayMaxima, phases)
    }

    /// The bound. A unit impulse followed by silence, one frame per call, reads each delay's
    /// largest |coefficient| off the library itself. When they are those of the design above
    /// (libebur128 1.2), the bound is the design's largest sum of a phase (1.864 at 4×, 2.307
    /// at 2×); otherwise (another version) the sum of the delays' largest values, which bounds
    /// any interpolator (3.51 for this one, counting the impulse's own frame as 1). Rounded up
    /// by 0.1 %. With the design's taps for screening when they are the library's.
    private static func measureBound(sampleRate: UInt) throws(SoundError) -> (Float, [[(delay: Int, coefficient: Float)]]?) {
        var probe = ebur128_init(2, sampleRate, Int32(bitPattern: EBUR128_MODE_TRUE_PEAK.rawValue))
        guard probe != nil else {
            throw .synthesizerFailed(operation: "start the true-peak meter (libebur128)", messages: [])
        }
        defer { ebur128_destroy(&probe) }
        var measured: [Double] = []
        for index in 0..<(2 * contextFrames) {
            let frame: [Float] = index == 0 ? [1, 1] : [0, 0]
            ebur128_add_frames_float(probe, frame, 1)
            var value = 0.0
            // The impulse's own call reports its sample peak (1); the interpolation comes after.
            if index > 0, ebur128_prev_true_peak(probe, 0, &value) == EBUR128_SUCCESS.rawValue, value > 0.000001 {
                measured.append(value)
            }
        }
        let loose = 1 + measured.reduce(0, +)
        guard let design = designedInterpolator(sampleRate: sampleRate) else { return (Float(loose * 1.001), nil) }
        // The impulse's own call hides the first delay's value under the sample peak; the
        // calls after it show the other delays' values in order.
        var expected = Array(design.delayMaxima.dropFirst())
        while let last = expected.last, last <= 0.000001 { expected.removeLast() }
        let matches = expected.count == measured.count
            && zip(expected, measured).allSatisfy { abs($0 - $1) <= 0.0001 * max(1, $0) }
        guard matches else { return (Float(loose * 1.001), nil) }
        let phases = design.phases.map { $0.map { (delay: $0.delay, coefficient: Float($0.coefficient)) } }
        return (Float(design.phaseSums.max()! * 1.001), phases)
    }

    /// The largest |value| of the interpolated signal over `chunk` (interleaved stereo), in
    /// single precision, with the stream's frames before it from `history`.
    private func screenedPeak(_ chunk: [Float], frames: Int, phases: [[(delay: Int, coefficient: Float)]]) -> Float {
        let context = phases.flatMap { $0.map(\.delay) }.max() ?? 0
        let span = context + frames + 8
        if planar.count < 2 * span { planar = [Float](repeating: 0, count: 2 * span) }
        let held = min(historyFrames, context)
        var best: Float = 0
        planar.withUnsafeMutableBufferPointer { planar in
            for channel in 0..<2 {
                let base = channel * span
                // The frames before the chunk (zeros before the stream's start), the chunk, then zeros.
                for i in 0..<context {
                    let back = context - i
                    planar[base + i] = back <= held ? history[2 * (historyFrames - back) + channel] : 0
                }
                for i in 0..<frames { planar[base + context + i] = chunk[2 * i + channel] }
                for i in 0..<8 { planar[base + context + frames + i] = 0 }
            }
            let raw = UnsafeRawPointer(planar.baseAddress!)
            let stride = MemoryLayout<Float>.stride
            for phase in phases {
                for channel in 0..<2 {
                    let first = channel * span + context
                    var peak = SIMD8<Float>(repeating: 0)
                    var frame = 0
                    while frame < frames {
                        var sum = SIMD8<Float>(repeating: 0)
                        for tap in phase {
                            let values = raw.loadUnaligned(fromByteOffset: (first + frame - tap.delay) * stride, as: SIMD8<Float>.self)
                            sum += values * tap.coefficient
                        }
                        // Frames past the chunk's end read zeros; their values are not the
                        // stream's but stay within the bound of the chunk's samples.
                        let magnitude = sum.replacing(with: -sum, where: sum .< 0)
                        peak.replace(with: magnitude, where: magnitude .> peak)
                        frame += 8
                    }
                    best = max(best, peak.max())
                }
            }
        }
        return best
    }

    /// Adds interleaved stereo frames (full scale ±1).
    func add(_ samples: UnsafeBufferPointer<Float>) {
        var index = 0
        let chunkSamples = 2 * Self.chunkFrames
        while index < samples.count {
            let take = min(chunkSamples - pending.count, samples.count - index)
            pending.append(contentsOf: samples[index..<(index + take)])
            index += take
            if pending.count == chunkSamples { enqueue() }
        }
    }

    /// The true peak over both channels in dBTP (−infinity for silence), counting every frame added.
    var truePeak: Double {
        if !pending.isEmpty { enqueue() }
        while !window.isEmpty { decideOldest() }
        return peak > 0 ? 20 * log10(peak) : -.infinity
    }

    private func enqueue() {
        let chunkPeak = pending.withUnsafeBufferPointer { SamplePeak.largestMagnitude($0) }
        loudestSample = max(loudestSample, chunkPeak)
        var chunk = spare.popLast() ?? []
        swap(&chunk, &pending)
        pending.removeAll(keepingCapacity: true)
        window.append(chunk)
        windowPeaks.append(chunkPeak)
        if window.count > Self.windowChunks { decideOldest() }
    }

    private func decideOldest() {
        let chunk = window.removeFirst()
        let chunkPeak = windowPeaks.removeFirst()
        let frames = chunk.count / 2
        let heldPeak = history.withUnsafeBufferPointer { SamplePeak.largestMagnitude(UnsafeBufferPointer(rebasing: $0[0..<(2 * historyFrames)])) }
        chunks += 1
        let reached = max(peak, Double(loudestSample))
        var interpolate = Double(bound * max(chunkPeak, heldPeak)) > reached
        if interpolate, let screen {
            screenedChunks += 1
            let tolerance = Self.screenTolerance * bound * max(chunkPeak, heldPeak)
            // libebur128 reports the larger of the interpolated peak and the call's sample
            // peak; the screen's phase-0 values show a sample only `delay` frames later, so
            // the chunk's last samples count here by themselves.
            interpolate = Double(max(screenedPeak(chunk, frames: frames, phases: screen), chunkPeak) + tolerance) > reached
        }
        if interpolate {
            interpolatedChunks += 1
            if !previousFed && historyFrames > 0 {
                ebur128_add_frames_float(state, history, historyFrames)
            }
            ebur128_add_frames_float(state, chunk, frames)
            for channel in 0..<UInt32(2) {
                var value = 0.0
                if ebur128_prev_true_peak(state, channel, &value) == EBUR128_SUCCESS.rawValue { peak = max(peak, value) }
            }
            previousFed = true
        } else {
            previousFed = false
        }
        // Keep the last `contextFrames` frames of the stream.
        let keep = Self.contextFrames
        if frames >= keep {
            history.withUnsafeMutableBufferPointer { h in
                for i in 0..<(2 * keep) { h[i] = chunk[2 * (frames - keep) + i] }
            }
            historyFrames = keep
        } else {
            let combined = Array(history[0..<(2 * historyFrames)]) + chunk
            let start = max(0, combined.count / 2 - keep)
            let tail = combined[(2 * start)...]
            historyFrames = tail.count / 2
            for (i, value) in tail.enumerated() { history[i] = value }
        }
        spare.append(chunk)
    }
}
