// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CChipmunk
import CChipmunkPools
import Geometry
#if canImport(Glibc)
import Glibc
#endif

/// The Chipmunk space in which a bass ball bounces among bouncers and piano balls fall on keys.
///
/// Stepped at a fixed timestep (`WorldConfiguration.timestep`), each step split into
/// `substeps` Chipmunk steps. After a step, `contacts` holds the first contacts that step
/// found (bass ball ↔ bouncer, piano ball ↔ key) and `escapes` any ball that had to be put
/// back. Both buffers are reused: read them before the next `step()`.
///
/// Rules the World keeps, whatever the solver does:
/// - the bass ball ignores gravity and always moves at `bassSpeed`;
/// - a piano ball never moves faster than `pianoSpeedLimit`;
/// - a ball found outside its area is put back inside and reported as an `Escape`.
public final class World {
    /// The configuration this world was built from (gravity, bass speed and sub-steps as last retuned).
    public private(set) var configuration: WorldConfiguration
    /// First contacts found during the last `step()`, in the order Chipmunk reported them.
    public private(set) var contacts: [Contact] = []
    /// Balls put back during the last `step()`.
    public private(set) var escapes: [Escape] = []
    /// Number of completed timesteps; simulated time is `stepCount × timestep`.
    public private(set) var stepCount: Int64 = 0
    /// Escapes since the world was created.
    public private(set) var escapeCount = 0

    var space: OpaquePointer
    private let recordsContacts: Bool
    var bodies: [OpaquePointer] = []          // index = ball id
    /// Whether each ball is in the space (index = ball id): a ball taken out (`takeOut`) keeps its body.
    var presence: [Bool] = []
    /// The same bodies in memory of the world's own, for the rules after every sub-step: read
    /// without the retain and release that borrowing the array's buffer costs.
    private var stepBodies = UnsafeMutableBufferPointer<OpaquePointer>(start: nil, count: 0)
    var shapes: [OpaquePointer] = []          // every shape we added, statics included; the balls' last
    private var substepTime = 0.0
    /// Seconds of one Chipmunk step (`timestep / substeps`).
    private(set) var substepLength: Double
    /// `configuration.pianoSpeedLimit` (a square root), kept up to date by `retune`.
    private var pianoSpeedLimit: Double
    /// True when Chipmunk's sleeping is on (see `enforceRules`).
    private var wakesBassEverySubstep: Bool

    /// Simulated time, seconds.
    public var time: Double { Double(stepCount) * configuration.timestep }

    /// Number of balls: 1 bass ball plus the piano balls.
    public var ballCount: Int { bodies.count }

    /// Builds the world. The configuration must be valid (`problems` empty): Chipmunk aborts on bad values.
    /// `recordsContacts` false installs no collision handlers, so `contacts` stays empty
    /// (for benchmarks that measure bare Chipmunk stepping; sessions keep the default).
    /// `timesChipmunk` makes `step()` add the wall time spent in `cpSpaceStep` to
    /// `chipmunkSeconds` (for benchmarks).
    public init(configuration: WorldConfiguration, recordsContacts: Bool = true, timesChipmunk: Bool = false) {
        precondition(configuration.problems.isEmpty, "invalid world: \(configuration.problems)")
        self.configuration = configuration
        self.substepLength = configuration.timestep / Double(configuration.substeps)
        self.measuresChipmunkTime = timesChipmunk
        self.wakesBassEverySubstep = configuration.sleepTimeThreshold != nil
        self.pianoSpeedLimit = configuration.pianoSpeedLimit
        self.recordsContacts = recordsContacts
        World.silenceBannerOnce()
        // Room for two first contacts a ball in one step, so a step does not grow it (the
        // LV2 plugin steps the world in its real-time thread).
        contacts.reserveCapacity(2 * (configuration.pianoStarts.count + 1) + 64)
        space = World.newSpace(configuration)
        build()
    }

    deinit {
        freeSpace()
    }

    /// A new, empty space with the configuration's gravity, iterations, sleeping and index.
    private static func newSpace(_ configuration: WorldConfiguration) -> OpaquePointer {
        let space = cpSpaceNew()!
        cpSpaceSetGravity(space, cpVect(x: 0, y: -configuration.gravity))
        cpSpaceSetIterations(space, Int32(configuration.iterations))
        if let threshold = configuration.sleepTimeThreshold {
            cpSpaceSetSleepTimeThreshold(space, threshold)
        }
        if let hash = configuration.spatialHash {
            cpSpaceUseSpatialHash(space, hash.cellSize, Int32(hash.cells))
            // Balls that collide with no ball: the moving shapes need no search among themselves.
            if !configuration.pianoBallsCollide { _ = clumsy_chipmunk_index_balls_alone(UnsafeMutableRawPointer(space)) }
        }
        growPools(space, step: configuration.timestep / Double(configuration.substeps), balls: configuration.pianoStarts.count + 1)
        return space
    }

    /// Fills the (empty) space: statics, balls where the configuration starts them, the rules'
    /// body list and the contact handlers.
    private func build() {
        buildStatics()
        buildBalls()
        presence = Array(repeating: true, count: bodies.count)
        stepBodies = .allocate(capacity: bodies.count)
        _ = stepBodies.initialize(from: bodies)
        if recordsContacts { installHandlers() }
    }

    /// Frees the space, then its shapes and bodies (`cpSpaceFree` frees neither, and touches
    /// them only to wake sleeping bodies first). Not shape by shape out of the space first:
    /// Chipmunk looks through its whole cache of arbiters for each shape taken out, a thousand
    /// times over for the swarm.
    private func freeSpace() {
        cpSpaceFree(space)
        for shape in shapes { cpShapeFree(shape) }
        for body in bodies { cpBodyFree(body) }
        stepBodies.deallocate()
        shapes.removeAll()
        bodies.removeAll()
    }

    // MARK: Stepping

    /// Advances the world by one timestep (`substeps` Chipmunk steps).
    public func step() {
        // Only when there is something to remove: `removeAll(keepingCapacity:)` on an empty
        // array still goes through the array's generic replace path, every step.
        if !contacts.isEmpty { contacts.removeAll(keepingCapacity: true) }
        if !escapes.isEmpty { escapes.removeAll(keepingCapacity: true) }
        let start = time
        for index in 0..<configuration.substeps {
            substepTime = start + Double(index + 1) * substepLength
            if measuresChipmunkTime {
                let begin = World.monotonicSeconds()
                cpSpaceStep(space, substepLength)
                chipmunkSeconds += World.monotonicSeconds() - begin
            } else {
                cpSpaceStep(space, substepLength)
            }
            enforceRules()
        }
        stepCount += 1
    }

    /// True when `step()` times Chipmunk (see `init`); a `let`, so the check in the stepping
    /// loop costs a predictable branch and no exclusivity check.
    public let measuresChipmunkTime: Bool
    /// Wall seconds spent inside `cpSpaceStep`, when `measuresChipmunkTime`.
    public private(set) var chipmunkSeconds = 0.0

    private static func monotonicSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
    }

    /// Advances the world by one timestep with Chipmunk alone: the same `substeps` Chipmunk steps
    /// as `step()`, without the speed rules, escape checks or clearing of `contacts`/`escapes`.
    /// For benchmarks measuring bare stepping; sessions use `step()`.
    public func stepWithoutRules() {
        for _ in 0..<configuration.substeps {
            cpSpaceStep(space, substepLength)
        }
        stepCount += 1
    }

    /// Changes gravity (m/s², piano balls), the bass ball's constant speed (m/s), the
    /// Chipmunk sub-steps per timestep and its sleeping (seconds of idleness, nil: none) between
    /// two steps (a live control). The values must be valid (positive, finite); the piano speed
    /// limit follows the new gravity.
    public func retune(gravity: Double, bassSpeed: Double, substeps: Int, sleepTimeThreshold: Double?) {
        precondition(gravity.isFinite && gravity >= 0 && bassSpeed.isFinite && bassSpeed > 0 && substeps >= 1,
                     "invalid retune: gravity \(gravity), bass speed \(bassSpeed), substeps \(substeps)")
        configuration.gravity = gravity
        configuration.bassSpeed = bassSpeed
        configuration.substeps = substeps
        substepLength = configuration.timestep / Double(substeps)
        pianoSpeedLimit = configuration.pianoSpeedLimit
        cpSpaceSetGravity(space, cpVect(x: 0, y: -gravity))
        if sleepTimeThreshold != configuration.sleepTimeThreshold {
            precondition(sleepTimeThreshold.map { $0.isFinite && $0 > 0 } ?? true, "invalid sleep time threshold \(String(describing: sleepTimeThreshold))")
            configuration.sleepTimeThreshold = sleepTimeThreshold
            cpSpaceSetSleepTimeThreshold(space, sleepTimeThreshold ?? .infinity)
            wakesBassEverySubstep = sleepTimeThreshold != nil
        }
        setVelocity(velocity(ofBall: 0), ofBall: 0)   // rescaled to the new speed
    }

    // MARK: Ball access

    /// Position of a ball, metres.
    public func position(ofBall ball: Int) -> Vector {
        Vector(cpBodyGetPosition(bodies[ball]))
    }

    /// Velocity of a ball, m/s.
    public func velocity(ofBall ball: Int) -> Vector {
        Vector(cpBodyGetVelocity(bodies[ball]))
    }

    /// True when Chipmunk has put the ball to sleep (it rests and costs nothing).
    public func isSleeping(ball: Int) -> Bool {
        cpBodyIsSleeping(bodies[ball]) != 0
    }

    /// Sets a ball's velocity (waking it). For the bass ball the length is rescaled to `bassSpeed`.
    public func setVelocity(_ velocity: Vector, ofBall ball: Int) {
        precondition(velocity.isFinite)
        let body = bodies[ball]
        cpBodyActivate(body)
        var v = velocity
        if ball == 0 {
            let length = v.length
            v = length > 0 ? v * (configuration.bassSpeed / length) : Vector(configuration.bassSpeed, 0)
        }
        cpBodySetVelocity(body, cpVect(v))
        cpBodySetAngularVelocity(body, 0)
    }

    /// Moves a ball to `position` with `velocity` (waking it). The position is clamped into the ball's area.
    public func place(ball: Int, at position: Vector, velocity: Vector) {
        precondition(position.isFinite && velocity.isFinite)
        let body = bodies[ball]
        cpBodyActivate(body)
        let area = ball == 0 ? configuration.bassArea : configuration.pianoArea
        let radius = ball == 0 ? configuration.bassRadius : configuration.pianoRadius
        cpBodySetPosition(body, cpVect(area.clamp(position, inset: radius)))
        cpSpaceReindexShapesForBody(space, body)
        setVelocity(velocity, ofBall: ball)
    }

    // MARK: Rules after every sub-step

    private func enforceRules() {
        // In C (CChipmunkPools/rules.c), reading Chipmunk's bodies directly: in Swift every
        // ball cost two calls into the library a sub-step. The configuration is read field by
        // field (a copy of it, its arrays retained and released, after every sub-step cost a
        // few per cent of a session); putting a ball back is `putBack`, out of line, in ball
        // order as before (the C loop stops at a ball outside its area and goes on after it).
        let bodies = stepBodies
        let bassArea = configuration.bassArea
        if clumsy_bass_rule(UnsafeMutableRawPointer(bodies[0]), configuration.bassSpeed, wakesBassEverySubstep ? 1 : 0,
                            bassArea.minX, bassArea.minY, bassArea.maxX, bassArea.maxY) != 0 {
            putBack(ball: 0, area: bassArea, radius: configuration.bassRadius)
        }
        let pianoArea = configuration.pianoArea
        let count = bodies.count
        let base = UnsafeMutableRawPointer(bodies.baseAddress)
        var ball = 1
        while ball < count {
            ball = clumsy_piano_rule(base, ball, count, pianoSpeedLimit, pianoArea.minX, pianoArea.minY, pianoArea.maxX, pianoArea.maxY)
            guard ball < count else { break }
            putBack(ball: ball, area: pianoArea, radius: configuration.pianoRadius)
            ball += 1
        }
    }

    /// A ball found outside its area: put back inside, moving inwards, and reported as an `Escape`.
    @inline(never)
    private func putBack(ball: Int, area: Rect, radius: Double) {
        let body = bodies[ball]
        let p = Vector(cpBodyGetPosition(body))
        let v = Vector(cpBodyGetVelocity(body))
        escapes.append(Escape(time: substepTime, ball: ball, position: p))
        escapeCount += 1
        let back = p.isFinite ? area.clamp(p, inset: radius) : area.center
        var newVelocity = v.isFinite ? v : Vector(0, 0)
        if p.x < area.minX { newVelocity.x = abs(newVelocity.x) }
        if p.x > area.maxX { newVelocity.x = -abs(newVelocity.x) }
        if p.y < area.minY { newVelocity.y = abs(newVelocity.y) }
        if p.y > area.maxY { newVelocity.y = -abs(newVelocity.y) }
        cpBodySetPosition(body, cpVect(back))
        cpBodySetVelocity(body, cpVect(newVelocity))
        cpSpaceReindexShapesForBody(space, body)
    }

    // MARK: Building

    /// Tags of the static walls (user data only: reported in wall contacts, no effect on the physics).
    private static let wallTag = -2
    private static let floorTag = -3

    private enum CollisionType {
        static let bassBall: cpCollisionType = 1
        static let pianoBall: cpCollisionType = 2
        static let bouncer: cpCollisionType = 3
        static let key: cpCollisionType = 4
        static let wall: cpCollisionType = 5
    }

    private enum Category {
        static let bassWorld: cpBitmask = 1
        static let pianoWorld: cpBitmask = 2
        static let bassBall: cpBitmask = 4
        static let pianoBall: cpBitmask = 8
    }

    private func addStatic(_ shape: OpaquePointer, type: cpCollisionType, category: cpBitmask, mask: cpBitmask, tag: Int) {
        cpShapeSetElasticity(shape, 1)
        cpShapeSetFriction(shape, 0)
        cpShapeSetCollisionType(shape, type)
        cpShapeSetFilter(shape, cpShapeFilterNew(0, category, mask))
        cpShapeSetUserData(shape, UnsafeMutableRawPointer(bitPattern: tag + 1))
        cpSpaceAddShape(space, shape)
        shapes.append(shape)
    }

    private func addWalls(around area: Rect, category: cpBitmask, mask: cpBitmask) {
        let staticBody = cpSpaceGetStaticBody(space)
        let t = max(area.width, area.height)  // thick walls: nothing tunnels through
        let boxes = [
            cpBBNew(area.minX - t, area.minY - t, area.minX, area.maxY + t),   // left
            cpBBNew(area.maxX, area.minY - t, area.maxX + t, area.maxY + t),   // right
            cpBBNew(area.minX - t, area.minY - t, area.maxX + t, area.minY),   // floor
            cpBBNew(area.minX - t, area.maxY, area.maxX + t, area.maxY + t),   // ceiling
        ]
        for (index, box) in boxes.enumerated() {
            addStatic(cpBoxShapeNew2(staticBody, box, 0), type: CollisionType.wall, category: category, mask: mask,
                      tag: index == 2 ? Self.floorTag : Self.wallTag)
        }
    }

    private func buildStatics() {
        let config = configuration
        let staticBody = cpSpaceGetStaticBody(space)
        addWalls(around: config.bassArea, category: Category.bassWorld, mask: Category.bassBall)
        addWalls(around: config.pianoArea, category: Category.pianoWorld, mask: Category.pianoBall)
        for bouncer in config.bouncers {
            let shape = cpCircleShapeNew(staticBody, bouncer.radius, cpVect(bouncer.center))!
            addStatic(shape, type: CollisionType.bouncer, category: Category.bassWorld, mask: Category.bassBall, tag: bouncer.tag)
        }
        for filler in config.fillers {
            let shape = cpBoxShapeNew2(staticBody, cpBBNew(filler.minX, filler.minY, filler.maxX, filler.maxY), 0)!
            addStatic(shape, type: CollisionType.wall, category: Category.pianoWorld, mask: Category.pianoBall, tag: Self.floorTag)
        }
        for key in config.keys {
            let f = key.frame
            let shape = cpBoxShapeNew2(staticBody, cpBBNew(f.minX, f.minY, f.maxX, f.maxY), 0)!
            addStatic(shape, type: CollisionType.key, category: Category.pianoWorld, mask: Category.pianoBall, tag: key.tag)
        }
    }

    private func addBall(id: Int, radius: Double, position: Vector, velocity: Vector, elasticity: Double,
                         friction: Double, type: cpCollisionType, category: cpBitmask, mask: cpBitmask) -> OpaquePointer {
        let mass = 1.0
        let body = cpBodyNew(mass, cpMomentForCircle(mass, 0, radius, cpVect(x: 0, y: 0)))!
        cpBodySetPosition(body, cpVect(position))
        cpBodySetVelocity(body, cpVect(velocity))
        cpBodySetUserData(body, UnsafeMutableRawPointer(bitPattern: id + 1))
        clumsy_ball_moves_lean(UnsafeMutableRawPointer(body))
        cpSpaceAddBody(space, body)
        let shape = cpCircleShapeNew(body, radius, cpVect(x: 0, y: 0))!
        cpShapeSetElasticity(shape, elasticity)
        cpShapeSetFriction(shape, friction)
        cpShapeSetCollisionType(shape, type)
        cpShapeSetFilter(shape, cpShapeFilterNew(0, category, mask))
        cpSpaceAddShape(space, shape)
        shapes.append(shape)
        bodies.append(body)
        return body
    }

    private func buildBalls() {
        let config = configuration
        let bass = addBall(id: 0, radius: config.bassRadius, position: config.bassStart, velocity: config.bassVelocity,
                           elasticity: 1, friction: 0, type: CollisionType.bassBall,
                           category: Category.bassBall, mask: Category.bassWorld)
        // The bass ball ignores gravity and is never damped.
        clumsy_bass_ignores_gravity(UnsafeMutableRawPointer(bass))
        for (index, start) in config.pianoStarts.enumerated() {
            _ = addBall(id: index + 1, radius: config.pianoRadius, position: start, velocity: .zero,
                        elasticity: config.pianoRestitution, friction: config.pianoFriction,
                        type: CollisionType.pianoBall, category: Category.pianoBall,
                        mask: config.pianoBallsCollide ? Category.pianoWorld | Category.pianoBall : Category.pianoWorld)
        }
    }

    // MARK: Contacts

    private func installHandlers() {
        let owner = Unmanaged.passUnretained(self).toOpaque()
        let begin: cpCollisionBeginFunc = { arbiter, _, userData in
            guard let arbiter, let userData else { return 1 }
            let world = Unmanaged<World>.fromOpaque(userData).takeUnretainedValue()
            world.recordContact(arbiter)
            return 1
        }
        var pairs = [(CollisionType.bassBall, CollisionType.bouncer), (CollisionType.pianoBall, CollisionType.key)]
        if configuration.recordsWallContacts {
            pairs += [(CollisionType.bassBall, CollisionType.wall), (CollisionType.pianoBall, CollisionType.wall)]
        }
        for (a, b) in pairs {
            let handler = cpSpaceAddCollisionHandler(space, a, b)!
            handler.pointee.beginFunc = begin
            handler.pointee.userData = owner
        }
    }

    /// Called from Chipmunk's begin callback: velocities are still the pre-impact ones.
    private func recordContact(_ arbiter: OpaquePointer) {
        var ballShape: OpaquePointer?
        var targetShape: OpaquePointer?
        cpArbiterGetShapes(arbiter, &ballShape, &targetShape)
        guard let ballShape, let targetShape, cpArbiterGetCount(arbiter) > 0 else { return }
        let body = cpShapeGetBody(ballShape)!
        let ball = Int(bitPattern: cpBodyGetUserData(body)) - 1
        let tag = Int(bitPattern: cpShapeGetUserData(targetShape)) - 1
        let normal = Vector(cpArbiterGetNormal(arbiter))
        let point = cpArbiterGetPointA(arbiter, 0)
        let velocity = Vector(cpBodyGetVelocityAtWorldPoint(body, point))
        let speed = abs(velocity.dot(normal))
        let target: ContactTarget
        switch cpShapeGetCollisionType(targetShape) {
        case CollisionType.bouncer: target = .bouncer(tag)
        case CollisionType.key: target = .key(tag)
        default: target = tag == Self.floorTag ? .floor : .wall
        }
        contacts.append(Contact(time: substepTime, ball: ball, target: target, speed: speed))
    }

    // MARK: Chipmunk's banner

    /// Debian's Chipmunk prints a two-line banner on stdout at the first `cpSpaceNew` of a process.
    /// Create and free one space with stdout pointed at /dev/null, once, so users never see it.
    private static let bannerSilenced: Bool = {
        fflush(nil)
        let saved = dup(STDOUT_FILENO)
        let null = open("/dev/null", O_WRONLY)
        if saved >= 0 && null >= 0 { dup2(null, STDOUT_FILENO) }
        let probe = cpSpaceNew()
        fflush(nil)
        cpSpaceFree(probe)
        if saved >= 0 && null >= 0 { dup2(saved, STDOUT_FILENO) }
        if null >= 0 { close(null) }
        if saved >= 0 { close(saved) }
        return true
    }()

    private static func silenceBannerOnce() { _ = bannerSilenced }
}

extension Vector {
    init(_ v: cpVect) { self.init(v.x, v.y) }
}

extension cpVect {
    init(_ v: Vector) { self.init(x: v.x, y: v.y) }
}
