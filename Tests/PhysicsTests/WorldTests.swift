// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Geometry
import Testing
@testable import Physics

/// A small world: the original's areas (in metres), one key, bouncers as asked.
func makeWorld(gravity: Double = 9.81, bassSpeed: Double = 2, pianoStarts: [Vector],
               restitution: Double = 0.98, timestep: Double = 1.0 / 240, substeps: Int = 4,
               bouncers: [CircleObstacle] = [], keys: [KeyObstacle]? = nil) -> World {
    let bassArea = Rect(minX: 0, minY: 0, maxX: 3.41, maxY: 4.67)
    let pianoArea = Rect(minX: 3.41, minY: 0, maxX: 6.83, maxY: 5.12)
    let keyList = keys ?? [KeyObstacle(tag: 1, frame: Rect(minX: 3.41, minY: 0, maxX: 6.83, maxY: 0.1667))]
    let config = WorldConfiguration(
        bassArea: bassArea, pianoArea: pianoArea, bouncers: bouncers, keys: keyList,
        bassStart: Vector(1.7, 1.28), bassVelocity: Vector(bassSpeed, bassSpeed), bassRadius: 0.22, bassSpeed: bassSpeed,
        pianoStarts: pianoStarts, pianoRadius: 0.1333, pianoRestitution: restitution, pianoFriction: 0,
        gravity: gravity, timestep: timestep, substeps: substeps)
    return World(configuration: config)
}

@Suite struct WorldTests {
    @Test(arguments: [1.0, 2.5, 4.0])
    func dropOnKeyReportsOneContactAtFreeFallSpeed(height: Double) {
        let keyTop = 0.1667
        let radius = 0.1333
        let world = makeWorld(pianoStarts: [Vector(5, keyTop + radius + height)])
        var contacts: [Contact] = []
        // Long enough to land, not long enough to land twice.
        let fallTime = (2 * height / 9.81).squareRoot()
        for _ in 0..<Int((fallTime + 0.2) * 240) {
            world.step()
            contacts += world.contacts.filter { $0.ball == 1 }
        }
        #expect(contacts.count == 1)
        let expected = (2 * 9.81 * height).squareRoot()
        let measured = contacts.first?.speed ?? 0
        #expect(abs(measured - expected) / expected < 0.03, "impact \(measured) m/s, expected \(expected) m/s")
        if case .key(let tag) = contacts.first?.target { #expect(tag == 1) } else { Issue.record("not a key contact") }
        #expect(abs((contacts.first?.time ?? 0) - fallTime) < 0.02)
    }

    @Test func restingBallGivesNoFurtherHits() {
        let keyTop = 0.1667
        let radius = 0.1333
        let world = makeWorld(pianoStarts: [Vector(5, keyTop + radius)], restitution: 0.5)
        var late: [Contact] = []
        for step in 0..<(5 * 240) {
            world.step()
            if step > 24 { late += world.contacts }
        }
        #expect(late.filter { $0.ball == 1 }.isEmpty)
        #expect(world.velocity(ofBall: 1).length < 0.05)
    }

    @Test func bassBallIgnoresGravityAndKeepsItsSpeed() {
        let bouncers = [CircleObstacle(tag: 1, center: Vector(1.7, 2.3), radius: 0.27),
                        CircleObstacle(tag: 5, center: Vector(3.41, 2.3), radius: 0.27)]
        let world = makeWorld(gravity: 50, bassSpeed: 3, pianoStarts: [], bouncers: bouncers)
        var bouncerHits = 0
        for _ in 0..<(60 * 240) {
            world.step()
            #expect(abs(world.velocity(ofBall: 0).length - 3) < 1e-9)
            bouncerHits += world.contacts.filter { $0.ball == 0 }.count
        }
        #expect(bouncerHits > 0)
        #expect(world.escapeCount == 0)
    }

    @Test func bassContactSpeedIsTheNormalComponent() {
        // Head-on: the ball moves straight at a bouncer, so the whole speed is along the normal.
        let bouncer = CircleObstacle(tag: 4, center: Vector(0.6, 1.28), radius: 0.27)
        let world = makeWorld(bassSpeed: 2, pianoStarts: [], bouncers: [bouncer])
        world.setVelocity(Vector(-1, 0), ofBall: 0)
        var hit: Contact?
        for _ in 0..<480 where hit == nil {
            world.step()
            hit = world.contacts.first { $0.ball == 0 }
        }
        #expect(hit?.target == .bouncer(4))
        #expect(abs((hit?.speed ?? 0) - 2) < 0.02)
    }

    @Test func noEscapeAtHighestGravityAndSpeed() {
        let bouncers = (1...7).map { CircleObstacle(tag: $0, center: Vector(0.4 * Double($0), 0.6 * Double($0)), radius: 0.27) }
        let keys = (0..<4).map { KeyObstacle(tag: $0 + 1, frame: Rect(minX: 3.41 + 0.86 * Double($0), minY: 0, maxX: 3.41 + 0.86 * Double($0) + 0.83, maxY: 0.1667)) }
        let starts = (0..<30).map { Vector(3.7 + 0.3 * Double($0 % 10), 4.0 + 0.3 * Double($0 / 10)) }
        let fastest = max(20, 1.1 * (2 * 100 * 5.12).squareRoot())
        let substeps = WorldConfiguration.substeps(timestep: 1.0 / 240, fastestSpeed: fastest, smallestRadius: 0.1333)
        let world = makeWorld(gravity: 100, bassSpeed: 20, pianoStarts: starts, restitution: 1,
                              substeps: substeps, bouncers: bouncers, keys: keys)
        for _ in 0..<(120 * 240) { world.step() }
        #expect(world.escapeCount == 0)
        for ball in 0..<world.ballCount {
            #expect(world.position(ofBall: ball).isFinite)
        }
    }

    @Test func escapedBallIsPutBackAndCounted() {
        let world = makeWorld(pianoStarts: [Vector(5, 3)])
        world.place(ball: 1, at: Vector(5, 3), velocity: .zero)
        // Teleport outside by bypassing the clamp: place clamps, so use a huge velocity for one step
        // with no sub-steps to carry it through the wall.
        world.setVelocity(Vector(0, 5000), ofBall: 1)
        world.step()
        #expect(world.escapeCount >= 1)
        #expect(world.escapes.first?.ball == 1)
        #expect(world.configuration.pianoArea.contains(world.position(ofBall: 1)))
    }

    @Test func substepsKeepTravelBelowHalfARadius() {
        #expect(WorldConfiguration.substeps(timestep: 1.0 / 240, fastestSpeed: 1, smallestRadius: 0.1) == 1)
        let n = WorldConfiguration.substeps(timestep: 1.0 / 240, fastestSpeed: 32, smallestRadius: 0.04)
        #expect(32 / 240 / Double(n) <= 0.5 * 0.04 + 1e-12)
        #expect(32 / 240 / Double(n - 1) > 0.5 * 0.04)
    }
}
