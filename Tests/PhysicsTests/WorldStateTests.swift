// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Geometry
import Testing
@testable import Physics

/// Saving and restoring a world: a restored state steps exactly as the saved one did.
@Suite struct WorldStateTests {
    /// A pile: ten piano balls (restitution 0.5) that fall, collide and come to rest on each
    /// other and on the key, and a bass ball among bouncers: at the save, Chipmunk holds many
    /// persistent contacts whose cached impulses warm-start its solver.
    private func pile() -> World {
        let starts = (0..<10).map { Vector(3.7 + 0.3 * Double($0 % 8), 1 + 0.4 * Double($0)) }
        let bouncers = [CircleObstacle(tag: 1, center: Vector(1.7, 2.3), radius: 0.27),
                        CircleObstacle(tag: 2, center: Vector(0.8, 3.5), radius: 0.27)]
        return makeWorld(pianoStarts: starts, restitution: 0.5, bouncers: bouncers)
    }

    /// Steps `count` times; returns the contacts (times relative to the start) and the final state.
    private func run(_ world: World, steps count: Int) -> (contacts: [Contact], state: WorldState) {
        let start = world.time
        var contacts: [Contact] = []
        for _ in 0..<count {
            world.step()
            contacts += world.contacts.map { var c = $0; c.time -= start; return c }
        }
        return (contacts, world.state())
    }

    /// The same pile pressed harder for a while (gravity 40 m/s²), then back to 9.81: the same
    /// balls touch the same balls, with other impulses in Chipmunk's cache.
    private func pressed(_ world: World) {
        world.retune(gravity: 40, bassSpeed: 2, substeps: 4, sleepTimeThreshold: world.configuration.sleepTimeThreshold)
        _ = run(world, steps: 300)
        world.retune(gravity: 9.81, bassSpeed: 2, substeps: 4, sleepTimeThreshold: world.configuration.sleepTimeThreshold)
    }

    @Test func restoreRepeatsTheSpanAfterTheSaveExactly() {
        let world = pile()
        _ = run(world, steps: 240)                  // still falling onto each other
        let saved = world.rebase()
        let first = run(world, steps: 1200)
        pressed(world)
        world.restore(saved)
        let again = run(world, steps: 1200)
        #expect(again.state == first.state, "every body ends bit for bit where it ended the first time")
        #expect(first.contacts.count > 10, "a span with contacts to compare")
        #expect(again.contacts.map(\.ball) == first.contacts.map(\.ball))
        #expect(again.contacts.map(\.speed) == first.contacts.map(\.speed))
        #expect(zip(again.contacts, first.contacts).allSatisfy { abs($0.time - $1.time) < 1e-9 })
    }

    /// Why `restore` takes the balls out of the space: setting the bodies in the space as it is
    /// keeps its cached contacts, and a resting pile then drifts from where it went the first time.
    @Test func settingTheBodiesInPlaceIsNotExact() {
        let world = pile()
        _ = run(world, steps: 1200)                 // at rest
        let saved = world.state()
        let first = run(world, steps: 720)
        pressed(world)
        world.setBodies(saved)
        let again = run(world, steps: 720)
        #expect(again.state != first.state)
        world.restore(saved)                         // the same state, as in a new space
        let fresh = run(world, steps: 720)
        let drift = zip(fresh.state.bodies, again.state.bodies).map { ($0.position - $1.position).length }.max() ?? 0
        #expect(drift > 0 && drift < 1e-3, "a small drift, \(drift) m")
    }

    /// `restore` takes the balls out of the space and puts them back rather than building a new
    /// space: after a long run with contacts, a ball taken out and gravity retuned, a restore
    /// must step exactly as the same state restored in a world that has never stepped.
    @Test func restoreStepsAsANewSpaceWould() {
        let world = pile()
        _ = run(world, steps: 600)
        world.takeOut(ball: 4)
        pressed(world)
        _ = run(world, steps: 900)                  // at rest, contacts cached, ball 4 out
        let saved = world.state()
        world.restore(saved)
        let new = pile()
        new.restore(saved)
        for restored in [world, new] {              // thrown up, to land on the pile and the key again
            for ball in 1..<restored.ballCount where restored.isIn(ball: ball) { restored.setVelocity(Vector(0, 3), ofBall: ball) }
        }
        let old = run(world, steps: 1200)
        let fresh = run(new, steps: 1200)
        #expect(old.contacts.count > 10, "a span with contacts to compare")
        #expect(old.state == fresh.state, "every body ends bit for bit where a new world's does")
        #expect(old.contacts.map(\.ball) == fresh.contacts.map(\.ball))
        #expect(old.contacts.map(\.speed) == fresh.contacts.map(\.speed))
    }

    /// `state(into:)` writes what `state()` returns, into a state of the world's shape.
    @Test func stateIntoMatchesState() {
        let world = pile()
        _ = run(world, steps: 300)
        world.takeOut(ball: 2)
        var state = pile().state()
        world.state(into: &state)
        #expect(state == world.state())
        #expect(!state.isIn[2])
    }

    @Test func stateRoundTripsThroughRestore() {
        let world = pile()
        _ = run(world, steps: 100)
        let state = world.state()
        world.restore(state)
        #expect(world.state() == state)
        #expect(world.ballCount == 11)
        #expect(state.bodies.allSatisfy { $0.position.isFinite && $0.velocity.isFinite })
    }
}
