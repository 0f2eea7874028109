// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CChipmunk
import CChipmunkPools
import Testing

/// `clumsy_chipmunk_index_balls_alone`: a crowded world of balls that meet nothing that moves
/// gives the same result, to the bit, with the index that never looks for pairs among them as
/// with Chipmunk's spatial hash, through falls, rests (sleeping), balls put elsewhere, and
/// balls taken out and brought back.
@Suite("The moving shapes' index of balls that meet no other ball")
struct BallIndexTests {
    /// Positions and velocities of every ball after `steps` steps of a box of `count` balls
    /// falling onto a floor of static circles (keys) and segments, and the contacts it saw.
    /// `mixed`: balls of three filters (the index makes a grid of static shapes for two
    /// filters a step and looks the third up as Chipmunk does), a static box around the whole
    /// box that every ball's filter refuses (as the other world's thick walls are to a
    /// world's balls), and a key taken out and put back.
    static func run(alone: Bool, count: Int = 240, steps: Int = 900, mixed: Bool = false, sleeps: Bool = true)
        -> (state: [Double], contacts: Int, touches: [Int], lookups: (made: UInt, skipped: UInt)) {
        let space = cpSpaceNew()!
        cpSpaceSetGravity(space, cpVect(x: 0, y: -9.81))
        cpSpaceSetIterations(space, 5)
        if sleeps { cpSpaceSetSleepTimeThreshold(space, 0.5) }
        cpSpaceUseSpatialHash(space, 0.16, Int32(10 * count))
        if alone { #expect(clumsy_chipmunk_index_balls_alone(UnsafeMutableRawPointer(space)) == 1) }
        clumsy_chipmunk_grow_pools(UnsafeMutableRawPointer(space), Int32(4 * count + 64), 1.0 / 240)
        // The order in which contacts begin (each ball's number), which Clumsy's notes follow.
        let touches = Touches()
        let handler = cpSpaceAddDefaultCollisionHandler(space)!
        handler.pointee.userData = Unmanaged.passUnretained(touches).toOpaque()
        handler.pointee.beginFunc = { arbiter, _, data in
            var a: OpaquePointer?, b: OpaquePointer?
            cpArbiterGetShapes(arbiter, &a, &b)
            let ball = [a, b].compactMap { $0 }.map { Int(bitPattern: cpShapeGetUserData($0)) }.max() ?? 0
            Unmanaged<Touches>.fromOpaque(data!).takeUnretainedValue().order.append(ball)
            return 1
        }
        let ground = cpSpaceGetStaticBody(space)!
        var shapes: [OpaquePointer] = []
        func addStatic(_ shape: OpaquePointer, filter: cpShapeFilter = cpShapeFilterNew(0, 2, mixed ? 8 | 16 | 32 : 8)) {
            cpShapeSetElasticity(shape, 0.5)
            cpShapeSetFilter(shape, filter)
            shapes.append(cpSpaceAddShape(space, shape))
        }
        if mixed {
            addStatic(cpBoxShapeNew2(ground, cpBBNew(-6, -2, 6, 10), 0), filter: cpShapeFilterNew(0, 1, 4))
            // Three ledges in the air, each met by the balls of one filter only: a grid made
            // for one filter and used for another would miss one.
            for (ledge, category) in [8, 16, 32].enumerated() {
                let x = -2.5 + 2.5 * Double(ledge)
                addStatic(cpSegmentShapeNew(ground, cpVect(x: x - 0.6, y: 3), cpVect(x: x + 0.6, y: 2.6), 0.03),
                          filter: cpShapeFilterNew(0, 2, cpBitmask(category)))
            }
        }
        addStatic(cpSegmentShapeNew(ground, cpVect(x: -4, y: 0), cpVect(x: 4, y: 0), 0.02))
        addStatic(cpSegmentShapeNew(ground, cpVect(x: -4, y: 0), cpVect(x: -4, y: 8), 0.02))
        addStatic(cpSegmentShapeNew(ground, cpVect(x: 4, y: 0), cpVect(x: 4, y: 8), 0.02))
        for key in 0..<9 { addStatic(cpCircleShapeNew(ground, 0.25, cpVect(x: Double(key) - 4, y: 0.4))) }
        var seed: UInt64 = 7
        func random() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        var bodies: [OpaquePointer] = []
        var balls: [OpaquePointer] = []
        for i in 0..<count {
            let body = cpSpaceAddBody(space, cpBodyNew(1, cpMomentForCircle(1, 0, 0.04, cpVect(x: 0, y: 0))))!
            cpBodySetPosition(body, cpVect(x: -3.8 + 7.6 * random(), y: 1 + Double(i % 40) * 0.15))
            cpBodySetVelocity(body, cpVect(x: 2 * random() - 1, y: 0))
            let shape = cpSpaceAddShape(space, cpCircleShapeNew(body, 0.04, cpVect(x: 0, y: 0)))!
            cpShapeSetElasticity(shape, 0.6)
            cpShapeSetFriction(shape, 0.4)
            let category: cpBitmask = !mixed || i % 5 != 0 ? 8 : i % 3 == 0 ? 32 : 16
            cpShapeSetFilter(shape, cpShapeFilterNew(0, category, 2))
            cpShapeSetUserData(shape, UnsafeMutableRawPointer(bitPattern: i + 1))
            bodies.append(body)
            balls.append(shape)
        }
        var contacts = 0
        for step in 0..<steps {
            cpSpaceStep(space, 1.0 / 240)
            cpSpaceEachBody(space, { body, data in
                cpBodyEachArbiter(body, { _, _, counter in counter!.assumingMemoryBound(to: Int.self).pointee += 1 }, data)
            }, &contacts)
            if step % 50 == 25 {
                // A drop: a ball put back at the top, as World.place does.
                let ball = Int(random() * Double(count))
                cpBodyActivate(bodies[ball])
                cpBodySetPosition(bodies[ball], cpVect(x: -3.8 + 7.6 * random(), y: 7))
                cpBodySetVelocity(bodies[ball], cpVect(x: 0, y: 0))
                cpSpaceReindexShapesForBody(space, bodies[ball])
            }
            if step == 300 {
                // The `balls` control: a few taken out, then brought back.
                for ball in stride(from: 0, to: count, by: 7) {
                    cpBodyActivate(bodies[ball])
                    cpSpaceRemoveShape(space, balls[ball])
                    cpSpaceRemoveBody(space, bodies[ball])
                }
            }
            if mixed && step == 500 { cpSpaceRemoveShape(space, shapes[shapes.count - 5]) }
            if mixed && step == 600 { cpSpaceAddShape(space, shapes[shapes.count - 5]) }
            if step == 400 {
                for ball in stride(from: 0, to: count, by: 7) {
                    cpSpaceAddBody(space, bodies[ball])
                    cpSpaceAddShape(space, balls[ball])
                }
            }
        }
        var lookups: (made: UInt, skipped: UInt) = (0, 0)
        if alone { #expect(clumsy_chipmunk_ball_index_lookups(UnsafeMutableRawPointer(space), &lookups.made, &lookups.skipped) == 1) }
        let state = bodies.flatMap { body -> [Double] in
            let p = cpBodyGetPosition(body), v = cpBodyGetVelocity(body)
            return [p.x, p.y, v.x, v.y]
        }
        cpSpaceFree(space)
        for shape in shapes + balls { cpShapeFree(shape) }
        for body in bodies { cpBodyFree(body) }
        return (state, contacts, touches.order, lookups)
    }

    final class Touches { var order: [Int] = [] }

    @Test("Balls falling, resting, dropped, taken out and brought back end bit for bit where the spatial hash leaves them")
    func sameWorld() {
        let hash = Self.run(alone: false), alone = Self.run(alone: true)
        #expect(hash.contacts > 10_000, "the balls must meet the floor and the keys: \(hash.contacts) contacts")
        #expect(alone.contacts == hash.contacts)
        #expect(hash.touches.count > 1_000 && alone.touches == hash.touches, "contacts must begin in the same order")
        #expect(alone.state.map(\.bitPattern) == hash.state.map(\.bitPattern))
    }

    @Test("Balls of three filters, ledges each meets alone, a box none may meet, a key taken out and put back: bit for bit the spatial hash's",
          arguments: [false, true])
    func sameWorldMixed(sleeps: Bool) {
        let hash = Self.run(alone: false, mixed: true, sleeps: sleeps), alone = Self.run(alone: true, mixed: true, sleeps: sleeps)
        #expect(hash.contacts > 10_000, "the balls must meet the floor and the keys: \(hash.contacts) contacts")
        #expect(alone.contacts == hash.contacts)
        #expect(hash.touches.count > 1_000 && alone.touches == hash.touches, "contacts must begin in the same order")
        #expect(alone.state.map(\.bitPattern) == hash.state.map(\.bitPattern))
        // The filters made a difference: the balls did not all fall alike.
        #expect(hash.state != Self.run(alone: false, sleeps: sleeps).state)
        if sleeps {
            // A sleeping space is looked up in full, every ball every step.
            #expect(alone.lookups.skipped == 0 && alone.lookups.made >= 240 * 800)
        } else {
            // Balls in the air are left out (a quarter of the lookups here, where most balls
            // soon lie on the floor); balls by the floor, keys and ledges are looked up.
            #expect(alone.lookups.skipped > 20_000 && alone.lookups.made > 20_000, "\(alone.lookups)")
        }
    }

    @Test("Only an empty index tied to the space's statics is replaced; Chipmunk's queries still find balls")
    func refusesAndAnswers() {
        let space = cpSpaceNew()!
        defer { cpSpaceFree(space) }
        cpSpaceUseSpatialHash(space, 0.16, 100)
        let body = cpSpaceAddBody(space, cpBodyNew(1, 1))!
        let shape = cpSpaceAddShape(space, cpCircleShapeNew(body, 0.1, cpVect(x: 0, y: 0)))!
        defer { cpSpaceRemoveShape(space, shape); cpSpaceRemoveBody(space, body); cpShapeFree(shape); cpBodyFree(body) }
        #expect(clumsy_chipmunk_index_balls_alone(UnsafeMutableRawPointer(space)) == 0, "a ball is in the hash already")

        let empty = cpSpaceNew()!
        defer { cpSpaceFree(empty) }
        cpSpaceUseSpatialHash(empty, 0.16, 100)
        #expect(clumsy_chipmunk_index_balls_alone(UnsafeMutableRawPointer(empty)) == 1)
        let ball = cpSpaceAddBody(empty, cpBodyNew(1, 1))!
        cpBodySetPosition(ball, cpVect(x: 1, y: 2))
        let circle = cpSpaceAddShape(empty, cpCircleShapeNew(ball, 0.1, cpVect(x: 0, y: 0)))!
        defer { cpSpaceRemoveShape(empty, circle); cpSpaceRemoveBody(empty, ball); cpShapeFree(circle); cpBodyFree(ball) }
        cpSpaceReindexShapesForBody(empty, ball)
        #expect(cpSpacePointQueryNearest(empty, cpVect(x: 1.05, y: 2), 0.2, cpShapeFilterNew(0, cpBitmask.max, cpBitmask.max), nil) == circle)
        #expect(cpSpacePointQueryNearest(empty, cpVect(x: 3, y: 2), 0.2, cpShapeFilterNew(0, cpBitmask.max, cpBitmask.max), nil) == nil)
        let hit = cpSpaceSegmentQueryFirst(empty, cpVect(x: 0, y: 2), cpVect(x: 2, y: 2), 0, cpShapeFilterNew(0, cpBitmask.max, cpBitmask.max), nil)
        #expect(hit == circle)
    }
}
