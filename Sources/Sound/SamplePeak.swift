// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// The largest magnitude among floats, eight lanes at a time.
///
/// `for value in values { peak = max(peak, abs(value)) }` is one compare-and-select after
/// another, each waiting for the last: `perf annotate` found the true-peak meter's chunk peak
/// and the mix bus's block peak spending their time on that chain (0.15 s of a 600 s render).
/// Eight running maxima break it. The result is the same float: a maximum does not depend on
/// the order, and a value that is not a number is passed over either way (`Swift.max(x, y)`
/// keeps `x` unless `y >= x`, as `.>` does here).
enum SamplePeak {
    /// The largest of `start` and every |value| in `values` (values that are not numbers left out).
    static func largestMagnitude(_ values: UnsafeBufferPointer<Float>, from start: Float = 0) -> Float {
        var peak = start
        guard let base = values.baseAddress else { return peak }
        let count = values.count
        var i = 0
        if count >= 8 {
            let raw = UnsafeRawPointer(base)
            var lanes = SIMD8<Float>(repeating: peak)
            while i + 8 <= count {
                let v = raw.loadUnaligned(fromByteOffset: i * MemoryLayout<Float>.stride, as: SIMD8<Float>.self)
                let magnitude = v.replacing(with: -v, where: v .< 0)
                lanes.replace(with: magnitude, where: magnitude .> lanes)
                i += 8
            }
            for lane in 0..<8 { peak = max(peak, lanes[lane]) }
        }
        while i < count {
            peak = max(peak, abs(values[i]))
            i += 1
        }
        return peak
    }
}
