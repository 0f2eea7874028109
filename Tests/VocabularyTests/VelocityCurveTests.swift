// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Testing
import Vocabulary

/// Impact speed to MIDI velocity (moved here from PerformanceTests: the curve is Vocabulary's).
@Suite struct VelocityCurveTests {
    @Test func monotoneAndClamped() {
        let curve = VelocityCurve(quietSpeed: 0.5, loudSpeed: 10, exponent: 0.7)
        var previous = 0
        for i in 0...2000 {
            let speed = Double(i) * 0.01
            let v = curve.velocity(forSpeed: speed)
            #expect((1...127).contains(v))
            #expect(v >= previous, "velocity fell at \(speed) m/s")
            previous = v
        }
        #expect(curve.velocity(forSpeed: 0) == 1)
        #expect(curve.velocity(forSpeed: 0.5) == 1)
        #expect(curve.velocity(forSpeed: 10) == 127)
        #expect(curve.velocity(forSpeed: 1e9) == 127)
        #expect(curve.velocity(forSpeed: -3) == 1)
        #expect(curve.velocity(forSpeed: .nan) == 1)
        #expect(curve.velocity(forSpeed: .infinity) == 127)
    }

    @Test func linearMidpointAndExponentShape() {
        let linear = VelocityCurve(quietSpeed: 0, loudSpeed: 2, exponent: 1)
        #expect(linear.velocity(forSpeed: 1) == 64)   // 1 + 126 × 0.5
        let soft = VelocityCurve(quietSpeed: 0, loudSpeed: 2, exponent: 0.5)
        #expect(soft.velocity(forSpeed: 0.5) == 1 + Int((126 * 0.5).rounded()))  // √0.25 = 0.5
        let hard = VelocityCurve(quietSpeed: 0, loudSpeed: 2, exponent: 2)
        #expect(hard.velocity(forSpeed: 1) == 1 + Int((126 * 0.25).rounded()))
    }
}
