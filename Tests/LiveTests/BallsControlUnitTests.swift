// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Geometry
import Physics
import Presets
import Studio
import TestSupport
import Testing
@testable import Engine
@testable import Live

// The `balls` control below the command line: its checks, and the world's balls in and out.

@Suite struct BallsControlUnitTests {
    @Test func countsAreWholeNumbersUpToTheSessionsBalls() throws {
        #expect(try Control.make(name: "balls", value: 3).get() == .balls(3))
        #expect(try Control.make(name: "balls", value: 0).get() == .balls(0))
        for bad: Double? in [2.5, -1, 1001, .nan, nil] {
            #expect(throws: ControlRejection.self, "\(String(describing: bad))") { try Control.make(name: "balls", value: bad).get() }
        }
        func interpret(_ arguments: [OSCValue]) -> Result<Control, ControlRejection> {
            OSCControlSource.interpret(OSCMessage(path: "/clumsy/balls", arguments: arguments))
        }
        #expect(try interpret([.int(2)]).get() == .balls(2))
        #expect(try interpret([.float(4)]).get() == .balls(4))
        #expect(throws: ControlRejection.self) { try interpret([.float(2.5)]).get() }
        #expect(throws: ControlRejection.self) { try interpret([]).get() }
        let plan = SessionPlan(configuration: try Configuration(preset: try bundled("original"), duration: 10))
        #expect(plan.rejection(of: .balls(4)) == nil)
        let refused = try #require(plan.rejection(of: .balls(5)))
        #expect(refused.description.contains("0…4"), "\(refused)")
    }

    @Test func aBallOutLeavesTheSpaceAndARestoreKeepsItOutExactly() throws {
        let plan = SessionPlan(configuration: try Configuration(preset: try bundled("original"), duration: 10))
        let world = World(configuration: plan.world)
        for _ in 0..<100 { world.step() }
        world.takeOut(ball: 2)
        let parked = world.position(ofBall: 2)
        let saved = world.state()
        #expect(saved.isIn == [true, true, false, true, true])
        func run() -> [Vector] {
            var trail: [Vector] = []
            for _ in 0..<480 {
                world.step()
                #expect(!world.contacts.contains { $0.ball == 2 })
                trail.append(world.position(ofBall: 1))
            }
            return trail
        }
        world.rebase()
        let first = run()
        #expect(world.position(ofBall: 2) == parked, "a ball out of the world moved")
        world.restore(saved)
        #expect(!world.isIn(ball: 2))
        #expect(run() == first, "a restore with a ball out does not step as the first time did")
        world.bringIn(ball: 2)
        world.place(ball: 2, at: Vector(0, 0), velocity: .zero)
        #expect(world.isIn(ball: 2) && world.state().isIn.allSatisfy { $0 })
        var struck = false
        for _ in 0..<960 where !struck {
            world.step()
            struck = world.contacts.contains { $0.ball == 2 }
        }
        #expect(struck, "ball 2 back in the world never struck a key")
    }
}
