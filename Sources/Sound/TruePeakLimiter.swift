// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The gain computer of a look-ahead true-peak limiter, streaming (fixed memory), for
/// offline use: it sees each stereo frame `delay` frames before it must say that frame's gain.
///
/// Detector: each frame's peak is the largest of |x| at the frame and of the signal
/// interpolated 4× (windowed-sinc, 16 taps) on both sides of it, over both channels (one
/// gain for both, so the stereo image stays put). The gain a frame needs is
/// `ceiling / peak` (at most 1).
///
/// Gain: a minimum over the look-ahead window of `lookAhead` frames, released no faster
/// than an exponential of `release` seconds back towards 1, then averaged over the same
/// window. Every frame within `lookAhead` of a peak gets at most the gain that peak needs,
/// so the limited signal stays under the ceiling, and the gain moves by straight ramps of
/// `lookAhead` frames (no clicks). Pure arithmetic in a fixed order: deterministic.
///
/// Computed in two loops per call: the needs of all frames (the detector; the interpolation
/// runs only within `taps` frames after a sample loud enough to matter, 4 % of the frames
/// of `default`), then the window minimum, release and average, whose deque holds only the
/// needs under 1 (the others cannot be a window's minimum). The same gains as computing
/// everything frame by frame in one loop (tested against that), 3× faster. The release stops
/// at `negligibleDepth`: decaying on through the subnormal floats after every limited peak, it
/// made the limiter 21 % of a 600 s render of `default` (1.1 s of CPU, `perf`), then 4 %. Where
/// the limiter is idle (nothing to limit in the window, no release left) the second loop
/// passes whole stretches of frames that need nothing, whose gains it knows (see
/// `smoothGains`): that loop alone went from 4.6 % of a later profile of the render to 0.3 %.
final class TruePeakLimiter {
    /// Linear ceiling applied to the detector's peaks.
    var ceiling: Double
    /// Frames the gain ramps over (and looks ahead).
    let lookAhead: Int
    /// Frames between a frame's arrival and its gain being known.
    var delay: Int { lookAhead + Self.halfTaps - 1 }
    /// Smallest gain produced so far.
    private(set) var smallestGain = 1.0

    /// The largest depth (1 − gain) that no longer moves a released gain: 1 − 2⁻²⁵ rounds
    /// to 1 in Float (a tie, to even), and a gain under 1 is at most 1 − 2⁻²⁴.
    static let negligibleDepth: Float = 0x1p-25
    static let halfTaps = 8
    static let taps = 2 * halfTaps
    /// Interpolation filters for fractions 1/4, 2/4, 3/4 between x[n] and x[n+1]:
    /// coefficient k multiplies x[n − halfTaps + 1 + k].
    static let filters: [SIMD16<Float>] = (1...3).map { phase in
        let fraction = Double(phase) / 4
        var taps = (0..<TruePeakLimiter.taps).map { k -> Double in
            let t = Double(k - TruePeakLimiter.halfTaps + 1) - fraction
            let sinc = t == 0 ? 1 : sin(Double.pi * t) / (Double.pi * t)
            let window = 0.5 + 0.5 * cos(Double.pi * t / Double(TruePeakLimiter.halfTaps + 1))
            return sinc * window
        }
        let sum = taps.reduce(0, +)
        for k in taps.indices { taps[k] /= sum }
        return SIMD16<Float>(taps.map { Float($0) })
    }
    /// The largest gain of any interpolation filter (sum of |coefficients|): an interval's
    /// peak is at most this times the largest |sample| of its window.
    static let filterBound: Float = TruePeakLimiter.filters.map { ($0.replacing(with: 0, where: $0 .>= 0) * -1 + $0.replacing(with: 0, where: $0 .< 0)).sum() }.max()!
    private let filter1 = TruePeakLimiter.filters[0]
    private let filter2 = TruePeakLimiter.filters[1]
    private let filter3 = TruePeakLimiter.filters[2]

    private let releaseStep: Double
    /// The last `taps` − 1 frames of the previous call, planar.
    private var tailLeft = [Float](repeating: 0, count: TruePeakLimiter.taps - 1)
    private var tailRight = [Float](repeating: 0, count: TruePeakLimiter.taps - 1)
    /// Frames seen.
    private var count = 0
    /// Interval peak between the frame before the current one and it.
    private var previousInterval: Float = 0
    /// Frame count at the last sample loud enough to need the interpolation.
    private var lastLoud = Int.min / 2
    /// The quiet-frames shortcut is off before this frame count: the window's frames were
    /// judged quiet against an earlier, higher threshold.
    private var shortcutFrom = 0
    private var lastThreshold: Float = .infinity
    /// Monotonic deque of (index, need) for the window minimum, needs under 1 only.
    private var dequeIndex: [Int]
    private var dequeValue: [Float]
    private var dequeHead = 0
    private var dequeCount = 0
    /// How far under 1 the released gain is (1 − the released minimum).
    private var depth: Float = 0
    /// Ring of released minima for the moving average.
    private var history: [Float]
    private var sum: Double
    private var historySlot = 0
    /// Scratch: this call's frames after the tail, planar; each frame's need.
    private var planarLeft: [Float] = []
    private var planarRight: [Float] = []
    private var needs: [Float] = []

    /// A limiter for `ceiling` (linear, > 0) at `sampleRate`, ramping over `attack` seconds
    /// and recovering with time constant `release` seconds.
    init(ceiling: Double, sampleRate: Double, attack: Double = 0.003, release: Double = 0.08) {
        self.ceiling = ceiling
        lookAhead = max(2, Int((attack * sampleRate).rounded()))
        releaseStep = 1 - exp(-1 / (release * sampleRate))
        dequeIndex = [Int](repeating: 0, count: lookAhead + 1)
        dequeValue = [Float](repeating: 0, count: lookAhead + 1)
        history = [Float](repeating: 1, count: lookAhead)
        sum = Double(lookAhead)
    }

    /// Takes the next `frames` interleaved stereo frames (nil: that many silent frames) and
    /// writes one gain per frame into `gains`: gain i belongs to the frame `delay` frames
    /// before input frame i (the first `delay` gains of a stream belong to no frame). Feed
    /// `delay` silent frames after the last one to get every gain.
    func process(_ samples: UnsafePointer<Float>?, frames: Int, gains: UnsafeMutablePointer<Float>) {
        guard frames > 0 else { return }
        let kept = Self.taps - 1
        if planarLeft.count < kept + frames {
            planarLeft = [Float](repeating: 0, count: kept + frames)
            planarRight = [Float](repeating: 0, count: kept + frames)
        }
        if needs.count < frames { needs = [Float](repeating: 1, count: frames) }
        let start = count
        detectNeeds(samples, frames: frames, start: start)
        smoothGains(frames: frames, start: start, gains: gains)
        count = start + frames
    }

    /// 1. Each frame's need (`needs`), from the previous call's last frames and this call's
    /// (`samples`, nil for silence), split into planar channels; keeps the last ones for the next call.
    private func detectNeeds(_ samples: UnsafePointer<Float>?, frames: Int, start: Int) {
        let kept = Self.taps - 1
        let ceiling = Float(self.ceiling)
        let threshold = ceiling / Self.filterBound
        if threshold < lastThreshold { shortcutFrom = start + Self.taps }
        lastThreshold = threshold
        planarLeft.withUnsafeMutableBufferPointer { left in
        planarRight.withUnsafeMutableBufferPointer { right in
        needs.withUnsafeMutableBufferPointer { needs in
            // The previous call's last frames, then this call's, one channel each.
            tailLeft.withUnsafeBufferPointer { for i in 0..<kept { left[i] = $0[i] } }
            tailRight.withUnsafeBufferPointer { for i in 0..<kept { right[i] = $0[i] } }
            if let samples {
                for i in 0..<frames {
                    left[kept + i] = samples[2 * i]
                    right[kept + i] = samples[2 * i + 1]
                }
            } else {
                for i in 0..<frames {
                    left[kept + i] = 0
                    right[kept + i] = 0
                }
            }
            detect(left: left, right: right, needs: needs, frames: frames, start: start, ceiling: ceiling, threshold: threshold)
            tailLeft.withUnsafeMutableBufferPointer { for i in 0..<kept { $0[i] = left[frames + i] } }
            tailRight.withUnsafeMutableBufferPointer { for i in 0..<kept { $0[i] = right[frames + i] } }
        }
        }
        }
    }

    /// The detector over planar `left` and `right` (the `taps` − 1 frames kept, then `frames`
    /// new ones): frame i (count c = start + i + 1 after it) closes the interval [m, m + 1],
    /// m = c − 1 − halfTaps, whose window is planar i … i + taps − 1.
    private func detect(left: UnsafeMutableBufferPointer<Float>, right: UnsafeMutableBufferPointer<Float>,
                        needs: UnsafeMutableBufferPointer<Float>, frames: Int, start: Int, ceiling: Float, threshold: Float) {
        let taps = Self.taps
        let halfTaps = Self.halfTaps
        let kept = taps - 1
        let f1 = filter1, f2 = filter2, f3 = filter3
        let shortcutFrom = self.shortcutFrom
        var previousInterval = self.previousInterval
        var lastLoud = self.lastLoud
        let leftRaw = UnsafeRawPointer(left.baseAddress!)
        let rightRaw = UnsafeRawPointer(right.baseAddress!)
        let stride = MemoryLayout<Float>.stride
        var i = 0
        while i < frames {
            let c = start + i + 1
            // Eight quiet frames at once: none of them nor the `taps` frames before is
            // loud, so there is nothing to interpolate, and every need is 1 (each frame's
            // own samples are under the threshold, which is under the ceiling).
            if i + 8 <= frames && c - lastLoud >= taps && c - 1 - halfTaps >= 0 && previousInterval == 0
                && c > shortcutFrom {
                let l = leftRaw.loadUnaligned(fromByteOffset: (kept + i) * stride, as: SIMD8<Float>.self)
                let r = rightRaw.loadUnaligned(fromByteOffset: (kept + i) * stride, as: SIMD8<Float>.self)
                let louder = l.replacing(with: -l, where: l .< 0), other = r.replacing(with: -r, where: r .< 0)
                if !any(louder .> threshold) && !any(other .> threshold) {
                    for k in 0..<8 { needs[i + k] = 1 }
                    i += 8
                    continue
                }
            }
            if max(abs(left[kept + i]), abs(right[kept + i])) > threshold { lastLoud = c }
            var interval: Float = 0
            // Interpolate only while a sample loud enough to matter is in the window.
            if c >= taps && c - lastLoud < taps {
                let offset = i * MemoryLayout<Float>.stride
                let wl = leftRaw.loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self)
                let wr = rightRaw.loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self)
                interval = max(max(abs((wl * f1).sum()), abs((wl * f2).sum())), max(abs((wl * f3).sum()), abs((wr * f1).sum())))
                interval = max(interval, max(abs((wr * f2).sum()), abs((wr * f3).sum())))
            }
            // Frame j = m: its own samples and the intervals on either side.
            var need: Float = 1
            if c - 1 - halfTaps >= 0 {
                let peak = max(max(abs(left[i + halfTaps - 1]), abs(right[i + halfTaps - 1])), max(interval, previousInterval))
                if peak > ceiling { need = ceiling / peak }
            }
            previousInterval = interval
            needs[i] = need
            i += 1
        }
        self.previousInterval = previousInterval
        self.lastLoud = lastLoud
    }

    /// 2. Window minimum, release, average: the gains of the `frames` needs, into `gains`.
    ///
    /// Idle (nothing under 1 in the window, no release left, the ring all 1), a frame that
    /// needs nothing changes no state but the ring's slot (it writes 1 over 1, adds 1 − 1) and
    /// gets the gain of a full ring: a stretch of them is done at once. The ring's sum is
    /// always exact: every released minimum is a multiple of 2⁻²⁴ in [0, 1] (1 − a depth,
    /// rounded to a float of at least ½, or exact by Sterbenz), so `sum` is `lookAhead` only
    /// when the ring is all 1.
    private func smoothGains(frames: Int, start: Int, gains: UnsafeMutablePointer<Float>) {
        let halfTaps = Self.halfTaps
        let lookAhead = self.lookAhead
        let capacity = lookAhead + 1
        // A multiply: a division per frame cost more than the rest of this loop.
        let perFrame = 1 / Double(lookAhead)
        var dequeHead = self.dequeHead, dequeCount = self.dequeCount
        var depth = self.depth
        let keep = 1 - Float(self.releaseStep)
        var sum = self.sum
        var historySlot = self.historySlot
        var smallest = Float(smallestGain)
        let idleSum = Double(lookAhead)
        let idleGain = min(1, Float(idleSum * perFrame))
        needs.withUnsafeBufferPointer { needs in
        dequeIndex.withUnsafeMutableBufferPointer { dequeIndex in
        dequeValue.withUnsafeMutableBufferPointer { dequeValue in
        history.withUnsafeMutableBufferPointer { history in
            var i = 0
            while i < frames {
                if dequeCount == 0 && depth == 0 && sum == idleSum && needs[i] >= 1 {
                    let end = Self.endOfNothingNeeded(needs, from: i, frames: frames)
                    for k in i..<end { gains[k] = idleGain }
                    if idleGain < smallest { smallest = idleGain }
                    historySlot = (historySlot + end - i) % lookAhead
                    i = end
                    continue
                }
                let j = start + i - halfTaps
                let need = needs[i]
                if need < 1 {
                    while dequeCount > 0 {
                        var last = dequeHead + dequeCount - 1
                        if last >= capacity { last -= capacity }
                        if dequeValue[last] >= need { dequeCount -= 1 } else { break }
                    }
                    var tail = dequeHead + dequeCount
                    if tail >= capacity { tail -= capacity }
                    dequeIndex[tail] = j
                    dequeValue[tail] = need
                    dequeCount += 1
                }
                var minimum: Float = 1
                if dequeCount > 0 {
                    while dequeCount > 0 && dequeIndex[dequeHead] <= j - lookAhead {
                        dequeHead += 1
                        if dequeHead == capacity { dequeHead = 0 }
                        dequeCount -= 1
                    }
                    if dequeCount > 0 { minimum = dequeValue[dequeHead] }
                }
                // In depth (1 − gain): one multiply and one max per frame on the chain from frame
                // to frame, instead of a subtraction, a multiply, an addition and a min.
                depth = max(1 - minimum, depth * keep)
                // A depth of 2⁻²⁵ or less changes nothing from here on (1 − depth rounds to 1; any
                // minimum under 1 gives 1 − minimum ≥ 2⁻²⁴, which wins the max). Set to 0 it stays
                // out of the subnormal floats, where each multiply stalled the processor.
                depth = depth > Self.negligibleDepth ? depth : 0
                let released = 1 - depth
                let slot = historySlot
                historySlot += 1
                if historySlot == lookAhead { historySlot = 0 }
                sum += Double(released) - Double(history[slot])
                history[slot] = released
                let gain = min(1, Float(sum * perFrame))
                if gain < smallest { smallest = gain }
                gains[i] = gain
                i += 1
            }
        }
        }
        }
        }
        self.dequeHead = dequeHead
        self.dequeCount = dequeCount
        self.depth = depth
        self.sum = sum
        self.historySlot = historySlot
        smallestGain = Double(smallest)
    }

    /// The first index from `start` on whose need is under 1 (`frames` if none), eight
    /// needs per compare: most of a render's frames need nothing, since the limiter acts on few.
    private static func endOfNothingNeeded(_ needs: UnsafeBufferPointer<Float>, from start: Int, frames: Int) -> Int {
        let raw = UnsafeRawPointer(needs.baseAddress!)
        var end = start
        while end + 8 <= frames
            && all(raw.loadUnaligned(fromByteOffset: end * MemoryLayout<Float>.stride, as: SIMD8<Float>.self) .>= 1) {
            end += 8
        }
        while end < frames && needs[end] >= 1 { end += 1 }
        return end
    }
}
