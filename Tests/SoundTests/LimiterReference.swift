// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing
@testable import Sound

/// The limiter's gain computer in one loop, every step for every frame (the ring of recent
/// frames, a deque that holds every frame's need), as first written except for the release
/// in depth and the average by a multiply, whose arithmetic `TruePeakLimiter` shares.
/// `TruePeakLimiter` computes the same in stages; `MasteringTests` checks that its gains are the same.
final class ReferenceLimiter {
    /// Linear ceiling applied to the detector's peaks.
    var ceiling: Double
    /// Frames the gain ramps over (and looks ahead).
    let lookAhead: Int
    /// Frames between a frame's arrival and its gain being known.
    var delay: Int { lookAhead + Self.halfTaps - 1 }
    /// Smallest gain produced so far.
    private(set) var smallestGain = 1.0

    // The detector's filters are the limiter's own: this is a reference for the loops.
    static let halfTaps = TruePeakLimiter.halfTaps
    private static let taps = TruePeakLimiter.taps
    private static let filterBound = TruePeakLimiter.filterBound
    private let filter1 = TruePeakLimiter.filters[0]
    private let filter2 = TruePeakLimiter.filters[1]
    private let filter3 = TruePeakLimiter.filters[2]

    private let releaseStep: Double
    // The last `taps` frames per channel, twice over (a ring read as one contiguous window).
    private var left = [Float](repeating: 0, count: 2 * ReferenceLimiter.taps)
    private var right = [Float](repeating: 0, count: 2 * ReferenceLimiter.taps)
    private var count = 0
    // Interval peak between the frame before the current one and it.
    private var previousInterval: Float = 0
    // Monotonic deque of (index, need) for the window minimum.
    private var dequeIndex: [Int]
    private var dequeValue: [Float]
    private var dequeHead = 0
    private var dequeCount = 0
    /// How far under 1 the released gain is (1 − the released minimum).
    private var depth: Float = 0
    // Ring of released minima for the moving average.
    private var history: [Float]
    private var sum: Double
    private var historySlot = 0
    private var lastLoud = Int.min / 2

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
        let taps = Self.taps
        let halfTaps = Self.halfTaps
        let ceiling = Float(self.ceiling)
        let lookAhead = self.lookAhead
        let capacity = lookAhead + 1
        let f1 = filter1, f2 = filter2, f3 = filter3
        var count = self.count
        var previousInterval = self.previousInterval
        var dequeHead = self.dequeHead, dequeCount = self.dequeCount
        var depth = self.depth
        let keep = 1 - Float(self.releaseStep)
        var sum = self.sum
        var historySlot = self.historySlot
        var lastLoud = self.lastLoud
        let threshold = ceiling / Self.filterBound
        var smallest = Float(smallestGain)
        left.withUnsafeMutableBufferPointer { left in
        right.withUnsafeMutableBufferPointer { right in
        dequeIndex.withUnsafeMutableBufferPointer { dequeIndex in
        dequeValue.withUnsafeMutableBufferPointer { dequeValue in
        history.withUnsafeMutableBufferPointer { history in
            let leftRaw = UnsafeRawPointer(left.baseAddress!)
            let rightRaw = UnsafeRawPointer(right.baseAddress!)
            for frame in 0..<frames {
                let l = samples.map { $0[2 * frame] } ?? 0
                let r = samples.map { $0[2 * frame + 1] } ?? 0
                let slot = count % taps
                left[slot] = l
                left[slot + taps] = l
                right[slot] = r
                right[slot + taps] = r
                count += 1
                // Window: the last `taps` frames, oldest first, at slot + 1 … slot + taps.
                let start = (slot + 1) * MemoryLayout<Float>.stride
                let wl = leftRaw.loadUnaligned(fromByteOffset: start, as: SIMD16<Float>.self)
                let wr = rightRaw.loadUnaligned(fromByteOffset: start, as: SIMD16<Float>.self)
                // Interval [m, m+1] with m = count − 1 − halfTaps.
                var interval: Float = 0
                // Interpolate only while a sample loud enough to matter is in the window.
                if max(abs(l), abs(r)) > threshold { lastLoud = count }
                if count >= taps && count - lastLoud < taps {
                    interval = max(max(abs((wl * f1).sum()), abs((wl * f2).sum())), max(abs((wl * f3).sum()), abs((wr * f1).sum())))
                    interval = max(interval, max(abs((wr * f2).sum()), abs((wr * f3).sum())))
                }
                // Frame j = m: its own samples and the intervals on either side.
                let j = count - 1 - halfTaps
                var need: Float = 1
                if j >= 0 {
                    let peak = max(max(abs(wl[halfTaps - 1]), abs(wr[halfTaps - 1])), max(interval, previousInterval))
                    if peak > ceiling { need = ceiling / peak }
                }
                previousInterval = interval
                // Window minimum over the last `lookAhead` needs.
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
                while dequeIndex[dequeHead] <= j - lookAhead {
                    dequeHead += 1
                    if dequeHead == capacity { dequeHead = 0 }
                    dequeCount -= 1
                }
                // In depth (1 − gain): one multiply and one max per frame on the chain from frame
                // to frame, instead of a subtraction, a multiply, an addition and a min.
                depth = max(1 - dequeValue[dequeHead], depth * keep)
                let released = 1 - depth
                let slotHistory = historySlot
                historySlot += 1
                if historySlot == lookAhead { historySlot = 0 }
                sum += Double(released) - Double(history[slotHistory])
                history[slotHistory] = released
                let gain = min(1, Float(sum * (1 / Double(lookAhead))))
                if gain < smallest { smallest = gain }
                gains[frame] = gain
            }
        }
        }
        }
        }
        }
        self.count = count
        self.previousInterval = previousInterval
        self.dequeHead = dequeHead
        self.dequeCount = dequeCount
        self.depth = depth
        self.sum = sum
        self.historySlot = historySlot
        self.lastLoud = lastLoud
        smallestGain = Double(smallest)
    }
}
