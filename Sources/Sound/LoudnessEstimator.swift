// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The integrated loudness (ITU-R BS.1770-4) of a stereo stream, streaming: the estimates
/// taken while rendering (`LimiterPreview`) and the measurement of the written mix
/// (`LimitingPass`), whose figure the summary line gives.
///
/// The same filter and gating as libebur128: K-weighting (its high shelf and high-pass,
/// from the same analog prototypes, so at any sample rate), mean square per channel over
/// 400 ms blocks every 100 ms, an absolute gate at −70 LUFS and a relative gate 10 LU
/// under the gated mean. Block energies are kept in a histogram of 0.01 LU bins with each
/// bin's exact sum, so memory stays flat however long the stream (libebur128's histogram
/// mode counts blocks in 0.1 LU bins at the bin's middle energy); the result agrees with
/// libebur128 within 0.01 LU (tested, also on a mastered file). It is two to three times
/// faster (`ebur128_add_frames_float` spends 20 ns per stereo frame here, keeping its
/// filter state in memory behind pointers; this one keeps it in registers, 8 ns, the
/// latency of its filters' chain of operations), which matters because it runs on every
/// rendered frame while the synthesizers use both cores.
final class LoudnessEstimator {
    /// The K-weighting filters' coefficients (the same for every estimator at a sample rate).
    private let k: KWeighting
    /// Filter state (plain Doubles, not SIMD2: SIMD arithmetic is a generic call per
    /// operation in a debug build, ten times slower there, which the tests' stop-latency
    /// limits felt, and no faster in a release build).
    private var state = KState()
    /// Frames per 100 ms segment, as libebur128 counts them.
    let segmentFrames: Int
    private var segmentEnergy = 0.0
    private var segmentFill = 0
    /// The last four segments' energies (a 400 ms block).
    private var recent = [Double](repeating: 0, count: 4)
    private var segments = 0
    /// Histogram of block loudness from −70 LUFS up, 0.01 LU bins: counts and energy sums.
    private var counts: [Int]
    private var sums: [Double]
    private static let lowest = -70.0
    private static let binsPerLU = 100.0
    private static let binCount = 10_000

    /// An estimator for interleaved stereo at `sampleRate` Hz.
    init(sampleRate: Double) {
        k = KWeighting(sampleRate: sampleRate)
        segmentFrames = (Int(sampleRate.rounded()) + 5) / 10
        counts = [Int](repeating: 0, count: Self.binCount)
        sums = [Double](repeating: 0, count: Self.binCount)
    }

    /// Adds interleaved stereo frames (full scale ±1), each multiplied by `gains[i]` when given.
    func add(_ samples: UnsafeBufferPointer<Float>, gains: UnsafeBufferPointer<Float>? = nil) {
        let frames = samples.count / 2
        var state = self.state
        let k = self.k
        var energy = segmentEnergy
        var fill = segmentFill
        var frame = 0
        while frame < frames {
            let run = min(frames - frame, segmentFrames - fill)
            var sumL = 0.0, sumR = 0.0
            for i in frame..<(frame + run) {
                var xl = Double(samples[2 * i]), xr = Double(samples[2 * i + 1])
                if let gains {
                    let gain = Double(gains[i])
                    xl *= gain
                    xr *= gain
                }
                state.step(xl, xr, k, &sumL, &sumR)
            }
            energy += sumL + sumR
            fill += run
            frame += run
            if fill == segmentFrames {
                closeSegment(energy)
                energy = 0
                fill = 0
            }
        }
        self.state = state
        segmentEnergy = energy
        segmentFill = fill
    }

    /// Adds the same frames to `plain` as they are and to `limited` each multiplied by
    /// `gains[i]`, in one loop: exactly what `plain.add(samples)` and `limited.add(samples,
    /// gains:)` do, in about the time of one of them (each estimator's filter is a chain
    /// of dependent operations from frame to frame; two chains side by side fill the
    /// processor's idle slots). Both must have been fed the same numbers of frames.
    static func add(_ samples: UnsafeBufferPointer<Float>, plain: LoudnessEstimator, limited: LoudnessEstimator,
                    gains: UnsafeBufferPointer<Float>) {
        precondition(plain !== limited && plain.k == limited.k && plain.segmentFrames == limited.segmentFrames,
                     "two estimators at one sample rate")
        precondition(plain.segmentFill == limited.segmentFill, "the two estimators were fed different numbers of frames")
        let frames = samples.count / 2
        precondition(gains.count >= frames, "a gain for every frame")
        let segmentFrames = plain.segmentFrames
        var plainState = plain.state, limitedState = limited.state
        let k = plain.k
        var plainEnergy = plain.segmentEnergy, limitedEnergy = limited.segmentEnergy
        var fill = plain.segmentFill
        var frame = 0
        while frame < frames {
            let run = min(frames - frame, segmentFrames - fill)
            var plainL = 0.0, plainR = 0.0, limitedL = 0.0, limitedR = 0.0
            for i in frame..<(frame + run) {
                let xl = Double(samples[2 * i]), xr = Double(samples[2 * i + 1])
                let gain = Double(gains[i])
                plainState.step(xl, xr, k, &plainL, &plainR)
                limitedState.step(xl * gain, xr * gain, k, &limitedL, &limitedR)
            }
            plainEnergy += plainL + plainR
            limitedEnergy += limitedL + limitedR
            fill += run
            frame += run
            if fill == segmentFrames {
                plain.closeSegment(plainEnergy)
                limited.closeSegment(limitedEnergy)
                plainEnergy = 0
                limitedEnergy = 0
                fill = 0
            }
        }
        plain.state = plainState
        limited.state = limitedState
        plain.segmentEnergy = plainEnergy
        limited.segmentEnergy = limitedEnergy
        plain.segmentFill = fill
        limited.segmentFill = fill
    }

    private func closeSegment(_ energy: Double) {
        recent[segments % 4] = energy
        segments += 1
        guard segments >= 4 else { return }
        let block = (recent[0] + recent[1] + recent[2] + recent[3]) / Double(4 * segmentFrames)
        guard block > 0 else { return }
        let loudness = -0.691 + 10 * log10(block)
        guard loudness >= Self.lowest else { return }
        let bin = min(Self.binCount - 1, Int((loudness - Self.lowest) * Self.binsPerLU))
        counts[bin] += 1
        sums[bin] += block
    }

    /// The integrated loudness so far, LUFS (−infinity before the first block above −70 LUFS).
    var integratedLoudness: Double {
        var count = 0
        var sum = 0.0
        for bin in 0..<Self.binCount where counts[bin] > 0 {
            count += counts[bin]
            sum += sums[bin]
        }
        guard count > 0 else { return -.infinity }
        let relative = -0.691 + 10 * log10(sum / Double(count)) - 10
        let first = min(Self.binCount - 1, max(0, Int(((relative - Self.lowest) * Self.binsPerLU).rounded(.down))))
        count = 0
        sum = 0
        for bin in first..<Self.binCount where counts[bin] > 0 {
            // The threshold's own bin: only its blocks above the threshold (by their mean).
            if bin == first, -0.691 + 10 * log10(sums[bin] / Double(counts[bin])) <= relative { continue }
            count += counts[bin]
            sum += sums[bin]
        }
        guard count > 0 else { return -.infinity }
        return -0.691 + 10 * log10(sum / Double(count))
    }
}

/// The K-weighting of ITU-R BS.1770 as libebur128 computes it (`ebur128_init_filter`): a
/// high shelf, then the RLB high-pass, from the same analog prototypes, so at any sample rate.
struct KWeighting: Equatable {
    /// Shelf: b0, b1, b2 over a1, a2. The high-pass's numerator is 1, −2, 1 (exact, so
    /// written as such in `KState.step`); its denominator d1, d2.
    let b0, b1, b2, a1, a2: Double
    let d1, d2: Double

    init(sampleRate: Double) {
        var f0 = 1681.974450955533
        let gain = 3.999843853973347
        var q = 0.7071752369554196
        var k = tan(Double.pi * f0 / sampleRate)
        let vh = pow(10, gain / 20)
        let vb = pow(vh, 0.4996667741545416)
        var a0 = 1 + k / q + k * k
        b0 = (vh + vb * k / q + k * k) / a0
        b1 = 2 * (k * k - vh) / a0
        b2 = (vh - vb * k / q + k * k) / a0
        a1 = 2 * (k * k - 1) / a0
        a2 = (1 - k / q + k * k) / a0
        f0 = 38.13547087602444
        q = 0.5003270373238773
        k = tan(Double.pi * f0 / sampleRate)
        a0 = 1 + k / q + k * k
        d1 = 2 * (k * k - 1) / a0
        d2 = (1 - k / q + k * k) / a0
    }
}

/// The two biquads' state (direct form II transposed), left (`l`) and right (`r`) channel.
struct KState {
    var s1l = 0.0, s2l = 0.0, t1l = 0.0, t2l = 0.0
    var s1r = 0.0, s2r = 0.0, t1r = 0.0, t2r = 0.0

    /// Filters one frame and adds the squares of its K-weighted samples to `sumL` and `sumR`.
    @inline(__always)
    mutating func step(_ xl: Double, _ xr: Double, _ k: KWeighting, _ sumL: inout Double, _ sumR: inout Double) {
        // Shelf.
        let yl = k.b0 * xl + s1l, yr = k.b0 * xr + s1r
        s1l = k.b1 * xl - k.a1 * yl + s2l
        s1r = k.b1 * xr - k.a1 * yr + s2r
        s2l = k.b2 * xl - k.a2 * yl
        s2r = k.b2 * xr - k.a2 * yr
        // High-pass (numerator 1, −2, 1).
        let zl = yl + t1l, zr = yr + t1r
        t1l = -2 * yl - k.d1 * zl + t2l
        t1r = -2 * yr - k.d1 * zr + t2r
        t2l = yl - k.d2 * zl
        t2r = yr - k.d2 * zr
        sumL += zl * zl
        sumR += zr * zr
    }
}

/// Estimates, while a mix is rendered, how much the true-peak limiter will lower its
/// loudness, so that the first mastering pass can aim at the target with the limiter's
/// loss already added, and usually needs no second pass.
///
/// Every other second of the mix runs through a `TruePeakLimiter` whose ceiling follows a
/// reference gain: the gain that brings the loudness so far to the target, plus
/// `assumedLoss`. Two `LoudnessEstimator`s measure the loss over the same frames, without
/// and with the limiter, leaving out the mix's first tenth (at most 10 s), whose loudness
/// says little about the whole. At the end the loss at the mean reference gain is carried
/// to the gain the mix needs with `MasteringPass.limitedLoudnessSlope` (more gain, more
/// limiting). Measured: on 600 s of `default` the first pass lands within 0.1 LU of the
/// target (0.64 LU off without the preview), so one pass suffices; 60 s renders of the
/// bundled presets often need a second, since a minute's loudness drifts more. Mastering
/// measures the written mix anyway and corrects a miss with another pass.
final class LimiterPreview {
    let unlimited: LoudnessEstimator
    private var stretchUnlimited: LoudnessEstimator
    private var stretchLimited: LoudnessEstimator
    private let limiter: TruePeakLimiter
    private let sampleRate: Double
    private let target: Double
    private let ceiling: Double
    /// The mean of the reference gains used so far (one per second).
    var referenceGain: Double? { referenceCount > 0 ? referenceSum / Double(referenceCount) : nil }
    private var referenceSum = 0.0
    private var referenceCount = 0
    /// Frames whose gain the limiter has not said yet, interleaved.
    private var waiting: [Float] = []
    private var gains: [Float] = []
    private var seen = 0
    /// Frames given to the limiter.
    private var limited = 0
    private var stretchFrames = 0

    private var nextUpdate = 0
    private let updateFrames: Int
    /// The loss assumed when choosing the reference gain, LU.
    static let assumedLoss = 0.5
    /// Longest start of the mix left out of the loss, seconds.
    static let settlingSeconds = 10.0

    private var settled = false
    private let settlingFrames: Int

    /// A preview for a target loudness (LUFS) and a linear ceiling, for a mix of about
    /// `expectedSeconds`: the loss is measured after its first tenth (at most 10 s).
    init(sampleRate: Double, target: Double, ceiling: Double, expectedSeconds: Double) {
        settlingFrames = Int(min(Self.settlingSeconds, 0.1 * expectedSeconds) * sampleRate)
        unlimited = LoudnessEstimator(sampleRate: sampleRate)
        stretchUnlimited = LoudnessEstimator(sampleRate: sampleRate)
        stretchLimited = LoudnessEstimator(sampleRate: sampleRate)
        limiter = TruePeakLimiter(ceiling: .infinity, sampleRate: sampleRate)
        self.sampleRate = sampleRate
        self.target = target
        self.ceiling = ceiling
        updateFrames = Int(sampleRate.rounded())
    }

    /// The gain (dB) that brings the loudness so far to the target, without the limiter.
    var baseGain: Double? {
        let loudness = unlimited.integratedLoudness
        return loudness.isFinite ? target - loudness : nil
    }

    /// The loss (LU) the limiter caused over the stretch at the reference gain, or nil when
    /// the stretch is too short.
    var referenceLoss: Double? {
        guard settled, referenceGain != nil, stretchFrames >= settlingFrames else { return nil }
        let before = stretchUnlimited.integratedLoudness, after = stretchLimited.integratedLoudness
        return before.isFinite && after.isFinite ? max(0, before - after) : nil
    }

    /// The gain (dB) the mix is expected to need: the base gain plus the limiter's loss at
    /// that gain (see the type's description); nil while nothing louder than −70 LUFS was heard.
    var expectedGain: Double? {
        guard let base = baseGain else { return nil }
        guard let reference = referenceGain, let loss = referenceLoss else { return min(Mastering.maximumGain, base) }
        let slope = MasteringPass.limitedLoudnessSlope
        // Solve g = base + loss + (1 − slope)(g − reference) for g.
        let gain = (base + loss - (1 - slope) * reference) / slope
        return min(Mastering.maximumGain, max(base, gain))
    }

    /// Adds interleaved stereo frames of the mix.
    func add(_ samples: UnsafeBufferPointer<Float>) {
        let frames = samples.count / 2
        guard frames > 0 else { return }
        unlimited.add(samples)
        if seen >= nextUpdate {
            nextUpdate = seen + updateFrames
            if let base = baseGain {
                if !settled && seen >= settlingFrames {
                    // The first seconds' loudness says little about the whole: start the loss again.
                    settled = true
                    stretchUnlimited = LoudnessEstimator(sampleRate: sampleRate)
                    stretchLimited = LoudnessEstimator(sampleRate: sampleRate)
                    stretchFrames = 0
                    referenceSum = 0
                    referenceCount = 0
                }
                let reference = min(Mastering.maximumGain, base + Self.assumedLoss)
                limiter.ceiling = ceiling / pow(10, reference / 20)
                referenceSum += reference
                referenceCount += 1
            }
        }
        // The limiter and the stretch's estimators see every other second (by the call's
        // first frame): half the cost, and the loss is a ratio of means, which the other
        // half would barely move.
        let sampled = (seen / updateFrames) % 2 == 0
        seen += frames
        if referenceCount > 0 { stretchFrames += frames }
        guard sampled else { return }
        waiting.append(contentsOf: samples)
        if gains.count < frames { gains = [Float](repeating: 1, count: frames) }
        gains.withUnsafeMutableBufferPointer { limiter.process(samples.baseAddress!, frames: frames, gains: $0.baseAddress!) }
        limited += frames
        // Gain i belongs to the frame `delay` frames before input frame i.
        let skip = max(0, limiter.delay - (limited - frames))
        let ready = frames - skip
        guard ready > 0 else { return }
        waiting.withUnsafeBufferPointer { all in
            let delayed = UnsafeBufferPointer(rebasing: all[0..<(2 * ready)])
            gains.withUnsafeBufferPointer { g in
                LoudnessEstimator.add(delayed, plain: stretchUnlimited, limited: stretchLimited,
                                      gains: UnsafeBufferPointer(rebasing: g[skip..<frames]))
            }
        }
        waiting.removeFirst(2 * ready)
    }
}
