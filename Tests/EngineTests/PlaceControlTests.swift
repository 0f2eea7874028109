// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Presets
import TestSupport
import Testing
@testable import Engine

@Suite struct PlaceControlTests {
    @Test("place drops the idlest piano ball from the top of the drop region, at that place across it; it is logged")
    func placeDropsThere() throws {
        let preset = try decode(#"{"piano": {"count": 5, "redropAfter": 60}}"#)
        let plan = SessionPlan(configuration: try Configuration(preset: preset, duration: 30))
        let region = plan.layout.dropRegion
        for across in [0, 250, 1000] {
            let simulator = Simulator(plan: plan)
            simulator.begin()
            for _ in 0..<1200 { simulator.step(); simulator.clearEvents() }
            simulator.queue(.place(across))
            simulator.step()
            let drops = simulator.stepEvents.compactMap { event -> Int? in if case .drop(_, let ball) = event { return ball } else { return nil } }
            let logged = simulator.stepEvents.contains { if case .live(_, _, .place(across)) = $0 { return true } else { return false } }
            try #require(drops.count == 1, "\(simulator.stepEvents)")
            #expect(logged)
            // Where the ball is one step after it was let go: the place, at the top (it has
            // fallen for one step only, and nothing overlaps it this high).
            let position = simulator.world.position(ofBall: drops[0])
            let x = region.minX + Double(across) / 1000 * region.width
            #expect(abs(position.x - x) < 0.02 && abs(position.y - region.maxY) < 0.02, "\(position) against (\(x), \(region.maxY))")
        }
    }
}
