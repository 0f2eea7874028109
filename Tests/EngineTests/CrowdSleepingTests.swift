// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Physics
import TestSupport
import Testing
@testable import Engine

/// A crowd's balls sleep in Chipmunk only where one can fall asleep before the rest rule takes
/// it up (`Configuration.crowdSleeping`); where none can, the session is the same without it.
@Suite struct CrowdSleepingTests {
    /// A crowd of small balls that meet no ball, as `swarm`'s, lying still for `rest` seconds at most.
    private func crowd(rest: Double, gravity: Double = 9.81) throws -> SessionPlan {
        let preset = try decode("""
            {"gravity": \(gravity), "piano": {"count": 150, "radius": 0.05, "restitution": 0.6, "collide": false, "restAfter": \(rest), "redropAfter": 6}}
            """)
        return SessionPlan(configuration: try Configuration(preset: preset, duration: 40))
    }

    private func events(_ plan: SessionPlan) throws -> [SessionEvent] {
        let sink = CollectingSink()
        try Simulator(plan: plan).run(into: [sink])
        return sink.events
    }

    @Test("Balls taken up within 0.3 s of lying still: no sleeping, and the same notes, drops and contacts as with it")
    func noSleepWhereNoneCanSleep() throws {
        let plan = try crowd(rest: 0.3)
        #expect(plan.isCrowded && plan.world.sleepTimeThreshold == nil)
        var sleeping = plan
        sleeping.world.sleepTimeThreshold = Configuration.crowdSleep
        let without = try events(plan), with = try events(sleeping)
        #expect(without.count > 1000)
        let common = min(without.count, with.count)
        let firstDifference = (0..<common).first { without[$0] != with[$0] } ?? (without.count == with.count ? nil : common)
        #expect(firstDifference == nil, "\(without.count) events against \(with.count), the first difference at \(firstDifference ?? -1)")
    }

    @Test("Balls that may lie still longer than Chipmunk waits, or an idle speed above the still speed: sleeping on")
    func sleepWhereOneCan() throws {
        #expect(try crowd(rest: 2).world.sleepTimeThreshold == Configuration.crowdSleep)
        #expect(try crowd(rest: 0.4).world.sleepTimeThreshold == Configuration.crowdSleep)   // 0.4 s and three looks pass 0.5 s
        #expect(try crowd(rest: 0.3, gravity: 100).world.sleepTimeThreshold == Configuration.crowdSleep)
        #expect(SessionPlan(configuration: try Configuration(preset: try decode(#"{"piano": {"count": 8, "restAfter": 60}}"#), duration: 1))
            .world.sleepTimeThreshold == nil)   // not a crowd: never
    }

    @Test("A gravity control that makes an idle ball faster than a still one turns sleeping on, and back off")
    func gravityTurnsItOn() throws {
        let plan = try crowd(rest: 0.3)
        let simulator = Simulator(plan: plan)
        #expect(simulator.world.configuration.sleepTimeThreshold == nil)
        simulator.retune(gravity: 100, speed: plan.world.bassSpeed)
        let substeps = simulator.world.configuration.substeps
        #expect(100 * plan.world.timestep / Double(substeps) >= Simulator.stillSpeed)
        #expect(simulator.world.configuration.sleepTimeThreshold == Configuration.crowdSleep)
        simulator.retune(gravity: 9.81, speed: plan.world.bassSpeed)
        #expect(simulator.world.configuration.sleepTimeThreshold == nil)
    }
}
