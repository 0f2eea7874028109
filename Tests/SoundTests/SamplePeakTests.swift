// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Testing
@testable import Sound

/// `SamplePeak.largestMagnitude` against the loop it replaced, to the bit.
@Suite("The largest magnitude, eight lanes at a time: the serial loop's float")
struct SamplePeakTests {
    /// The loop the meters and the mix bus ran before.
    static func serial(_ values: [Float], from start: Float) -> Float {
        var peak = start
        for value in values { peak = max(peak, abs(value)) }
        return peak
    }

    @Test("Random blocks of every length up to 40, with zeros of both signs, infinities and values that are not numbers")
    func sameAsSerial() {
        var seed: UInt64 = 3
        func next() -> UInt64 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return seed >> 11
        }
        let specials: [Float] = [0, -0.0, .infinity, -.infinity, .nan, -.nan, .leastNonzeroMagnitude, -.greatestFiniteMagnitude]
        var withNaN = 0
        for length in 0...40 {
            for trial in 0..<50 {
                let values = (0..<length).map { _ -> Float in
                    let r = next()
                    return r % 9 == 0 ? specials[Int(r / 9 % UInt64(specials.count))] : Float(Int64(r % 2_000_001) - 1_000_000) / 1_000_000
                }
                let start: Float = trial % 3 == 0 ? 0.5 : 0
                let expected = Self.serial(values, from: start)
                let found = values.withUnsafeBufferPointer { SamplePeak.largestMagnitude($0, from: start) }
                #expect(found.bitPattern == expected.bitPattern, "length \(length), trial \(trial): \(found) against \(expected)")
                if values.contains(where: \.isNaN) { withNaN += 1 }
            }
        }
        // The specials came up: blocks with values that are not numbers were compared.
        #expect(withNaN > 100)
    }

    @Test("An empty block keeps the start, and a block of one sample is that sample's magnitude")
    func edges() {
        #expect([Float]().withUnsafeBufferPointer { SamplePeak.largestMagnitude($0, from: 0.25) } == 0.25)
        #expect([Float(-0.75)].withUnsafeBufferPointer { SamplePeak.largestMagnitude($0) } == 0.75)
        let long = [Float](repeating: -0.1, count: 1000) + [-0.9] + [Float](repeating: 0.2, count: 7)
        #expect(long.withUnsafeBufferPointer { SamplePeak.largestMagnitude($0) } == 0.9)
    }
}
