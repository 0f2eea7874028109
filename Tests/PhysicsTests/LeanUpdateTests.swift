// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CChipmunk
import CChipmunkPools
import Testing

/// `clumsy_ball_moves_lean`: a body moved by Clumsy's velocity and position updates (without
/// Chipmunk's sanity checks, the rotation taken from the transform while the angle stays the
/// same) ends where Chipmunk's own updates put it, to the bit: balls that spin (friction) and
/// balls that do not, under gravity and damping, an angle set by hand, a kinematic paddle.
@Suite("A ball's velocity and position updates, lean and the same as Chipmunk's")
struct LeanUpdateTests {
    /// Every ball's position, angle, rotation and velocity as bit patterns, every 20 steps of
    /// balls falling onto a floor between two walls; half of them with friction (they spin), half without.
    /// Also how many ended with an angle other than 0 and how many with exactly 0.
    static func run(lean: Bool, count: Int = 40, steps: Int = 1200) -> (state: [UInt64], spun: Int, still: Int) {
        let space = cpSpaceNew()!
        cpSpaceSetGravity(space, cpVect(x: 0, y: -9.81))
        cpSpaceSetDamping(space, 0.9)
        let ground = cpSpaceGetStaticBody(space)!
        var floors: [OpaquePointer] = []
        for (a, b) in [((-4.0, 0.0), (4.0, 0.0)), ((-4.0, 0.0), (-4.0, 8.0)), ((4.0, 0.0), (4.0, 8.0))] {
            let floor = cpSegmentShapeNew(ground, cpVect(x: a.0, y: a.1), cpVect(x: b.0, y: b.1), 0.02)!
            cpShapeSetElasticity(floor, 0.7)
            cpShapeSetFriction(floor, 0.8)
            cpShapeSetFilter(floor, cpShapeFilterNew(0, 2, 8 | 16))
            floors.append(cpSpaceAddShape(space, floor))
        }
        var bodies: [OpaquePointer] = []
        var shapes: [OpaquePointer] = []
        for i in 0..<count {
            let body = cpSpaceAddBody(space, cpBodyNew(1, cpMomentForCircle(1, 0, 0.1, cpVect(x: 0, y: 0))))!
            cpBodySetPosition(body, cpVect(x: -3.5 + 7 * Double(i) / Double(count), y: 2 + Double(i % 7) * 0.5))
            // The odd balls fall straight, so they meet the floor square on.
            cpBodySetVelocity(body, cpVect(x: i.isMultiple(of: 2) ? Double(i % 5) - 2 : 0, y: 0))
            if lean { clumsy_ball_moves_lean(UnsafeMutableRawPointer(body)) }
            let shape = cpSpaceAddShape(space, cpCircleShapeNew(body, 0.1, cpVect(x: 0, y: 0)))!
            cpShapeSetElasticity(shape, 0.6)
            // Even balls: friction, and they meet each other (they spin). Odd ones: none, and
            // they meet only the floor, as the swarm's meet only the world (their angle stays 0).
            let spins = i.isMultiple(of: 2)
            cpShapeSetFriction(shape, spins ? 0.5 : 0)
            cpShapeSetFilter(shape, cpShapeFilterNew(0, spins ? 8 : 16, spins ? 2 | 8 : 2))
            bodies.append(body)
            shapes.append(shape)
        }
        // A kinematic paddle sweeping and turning through the balls: Chipmunk skips its velocity
        // update (its mass is infinite) and turns it every sub-step.
        let paddle = cpSpaceAddBody(space, cpBodyNewKinematic())!
        cpBodySetPosition(paddle, cpVect(x: -3, y: 0.6))
        cpBodySetVelocity(paddle, cpVect(x: 1, y: 0))
        cpBodySetAngularVelocity(paddle, 1.5)
        if lean { clumsy_ball_moves_lean(UnsafeMutableRawPointer(paddle)) }
        let blade = cpSpaceAddShape(space, cpSegmentShapeNew(paddle, cpVect(x: -0.4, y: 0), cpVect(x: 0.4, y: 0), 0.05))!
        cpShapeSetFilter(blade, cpShapeFilterNew(0, 2, 8))
        bodies.append(paddle)
        shapes.append(blade)
        var state: [UInt64] = []
        for step in 0..<steps {
            // A force and a torque on two balls (each update uses them, then clears them).
            cpBodySetForce(bodies[0], cpVect(x: 0.3, y: 2.1))
            cpBodySetTorque(bodies[2], 0.07)
            cpSpaceStep(space, 1.0 / 240)
            // An angle set by hand (as a restore could): the transform follows it.
            if step == 600 { cpBodySetAngle(bodies[1], 0.75) }
            if step.isMultiple(of: 20) {
                for body in bodies {
                    let p = cpBodyGetPosition(body), r = cpBodyGetRotation(body), v = cpBodyGetVelocity(body)
                    state += [p.x, p.y, cpBodyGetAngle(body), r.x, r.y, v.x, v.y].map(\.bitPattern)
                }
            }
        }
        let angles = bodies.map { cpBodyGetAngle($0) }
        for (body, shape) in zip(bodies, shapes) {
            cpSpaceRemoveShape(space, shape)
            cpSpaceRemoveBody(space, body)
            cpShapeFree(shape)
            cpBodyFree(body)
        }
        for floor in floors {
            cpSpaceRemoveShape(space, floor)
            cpShapeFree(floor)
        }
        cpSpaceFree(space)
        return (state, angles.filter { $0 != 0 }.count, angles.filter { $0 == 0 }.count)
    }

    @Test("Balls that spin and balls that do not move as Chipmunk moves them, to the bit, over 1,200 steps")
    func sameAsChipmunk() {
        let chipmunk = Self.run(lean: false)
        let clumsy = Self.run(lean: true)
        // Both paths of the update are taken: some balls turned, some never did.
        #expect(clumsy.spun >= 10 && clumsy.still >= 10, "spun \(clumsy.spun), still \(clumsy.still)")
        #expect(clumsy.state.count == chipmunk.state.count)
        let first = clumsy.state.indices.first { $0 >= chipmunk.state.count || clumsy.state[$0] != chipmunk.state[$0] }
        #expect(first == nil, "first difference at value \(first ?? -1) of \(clumsy.state.count)")
    }
}
