// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Presets
import TestSupport
import Testing
@testable import Engine

@Suite struct LiftControlTests {
    /// The drops of a 12 s session of `balls` piano balls with a `lift` at each of `steps`, and
    /// the controls it logged.
    private func lifts(balls: Int, at steps: [Int64]) throws -> (drops: [(time: Double, ball: Int)], logged: [Control]) {
        let preset = try decode(#"{"piano": {"count": \#(balls), "redropAfter": 60}}"#)
        let plan = SessionPlan(configuration: try Configuration(preset: preset, duration: 12))
        let sink = CollectingSink()
        try Simulator(plan: plan).run(into: [sink], controls: ReplayControls(steps.map { TimedControl(step: $0, control: .lift) }))
        var drops: [(Double, Int)] = []
        var logged: [Control] = []
        for event in sink.events {
            if case .drop(let time, let ball) = event { drops.append((time, ball)) }
            if case .live(_, _, let control) = event { logged.append(control) }
        }
        return (drops, logged)
    }

    @Test("a lift drops one ball, the one longest without a key hit: lifts in a row take every ball once, then the first again")
    func liftsTakeTheIdlestBall() throws {
        let balls = 5
        let steps = (0...balls).map { Int64(1_200 + $0) }
        let (drops, logged) = try lifts(balls: balls, at: steps)
        #expect(logged == Array(repeating: .lift, count: steps.count))
        let plan = SessionPlan(configuration: try Configuration(preset: try decode(#"{"piano": {"count": 5}}"#), duration: 1))
        let dt = plan.world.timestep
        // The drops the lifts made: at the start of each lift's step (the session's own redrops
        // come after 60 s without a hit, so none fall in these 12 s but the lifts').
        let lifted = steps.map { step in drops.filter { abs($0.time - Double(step) * dt) < dt / 2 }.map(\.ball) }
        #expect(lifted.allSatisfy { $0.count == 1 }, "\(lifted)")
        let order = lifted.compactMap(\.first)
        #expect(Set(order.prefix(balls)) == Set(1...balls), "\(order)")
        #expect(order.last == order.first, "\(order)")
    }
}
