// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Errors
import FileOutput
import Geometry
import Performance
import Physics
import Vocabulary
#if canImport(Glibc)
import Glibc
#endif

/// The fixed-step loop: physics → contacts → performer → scheduler → sinks.
///
/// Simulated time is the only clock: step n ends at t = n·dt. Offline it runs as fast as
/// the CPU allows; a `Pacer` can hold it to the wall clock for live play.
public final class Simulator {
    /// The session being simulated.
    public let plan: SessionPlan
    /// The physics world.
    public let world: World
    var performer: Performer
    var scheduler: Scheduler
    var kicks: SplitMix64
    var drops: SplitMix64
    var events: [SessionEvent] = []
    var scheduled: [ScheduledEvent] = []
    var lastBouncerHit = 0.0
    var recentDegrees: [Int] = []
    var lastKeyHit: [Double]
    /// Piano balls whose key contact this step was too soft to be a hit (`Rules.takesUp`).
    var softBalls: [Int] = []
    var stillSince: [Double]
    private let keyTones: [Int]
    var summary: Summary
    /// True once the opening has played (`begin()`): `run` goes on from where the session is.
    var hasBegun = false
    /// Looks at the balls after every step (read-only), e.g. to draw video frames.
    public var observer: StepObserver?
    // Live controls (Simulator+Controls.swift): polled at the start of each step.
    var controls: [Control] = []
    /// Controls queued from outside between steps (`queue(_:)`), applied after the next step's scenes.
    var queued: [Control] = []
    /// The form as it goes (Simulator+Form.swift), nil without one.
    var form: FormProgress?
    /// The first time, seconds, at which the form may have something to do (`formLine`): the
    /// steps before it compare their time with this and do nothing else for the form.
    var formDue = Double.infinity
    /// The same for the ending (`endingLine`) and the scenes (`cueScenes`).
    var endingDue = Double.infinity
    var sceneDue = -Double.infinity
    /// The piano-ball rules run on the steps whose count minus this is a multiple of
    /// `ruleInterval` (a returning section brings back the phase of its first time).
    var rulePhase: Int64 = 0
    /// The next of the plan's scenes (Scenes.swift).
    var nextScene = 0
    /// Whether the plan's scenes are played. A replay leaves them to its log, whose control
    /// lines hold them already (applied twice otherwise).
    public var playsScenes = true
    /// The ending as it goes (Simulator+Ending.swift), nil without one.
    var ending: EndingProgress?
    /// A cadence's approach as it goes (Simulator+Cadence.swift).
    var approach = CadenceApproach()
    /// The centre of each degree's bouncer (index = degree 1…7; nil: switched off).
    let bouncerCentres: [Vector?]
    /// The key changes of the form's sections and of the ending, worked out ahead.
    let preparedKeys: [(semitones: Int?, change: KeyChange)]

    /// How much earlier than its own test could pass a due time is set (`formDue`, `endingDue`,
    /// `sceneDue`), seconds: far above the rounding of the sums that test makes, far below a
    /// step; a call that comes early finds nothing due and sets the time again.
    static let dueMargin = 1e-6

    /// Steps between two checks of the piano-ball rules.
    static let ruleInterval: Int64 = 12

    /// Speed below which a piano ball counts as lying still, m/s.
    static let stillSpeed = 0.05

    /// Builds the plan of `configuration` with the default musical time and simulates it.
    convenience init(configuration: Configuration, timesChipmunk: Bool = false) {
        self.init(plan: SessionPlan(configuration: configuration), timesChipmunk: timesChipmunk)
    }

    /// Seconds of the loop window: the last hits inspected for a two-bouncer loop.
    static let loopWindow = 12

    /// Builds the world, the performer and the scheduler for `plan`. `timesChipmunk` makes the
    /// world measure its time inside Chipmunk (`World.chipmunkSeconds`, for benchmarks).
    public init(plan: SessionPlan, timesChipmunk: Bool = false) {
        self.plan = plan
        world = World(configuration: plan.world, timesChipmunk: timesChipmunk)
        performer = Performer(configuration: plan.performer, voices: plan.voices)
        scheduler = Scheduler(voices: plan.voices, clock: plan.clock, feel: plan.feel)
        kicks = SplitMix64(seed: plan.seed, stream: RandomStream.kicks.rawValue)
        drops = SplitMix64(seed: plan.seed, stream: RandomStream.drops.rawValue)
        lastKeyHit = Array(repeating: 0, count: plan.world.pianoStarts.count + 1)
        stillSince = Array(repeating: -1, count: plan.world.pianoStarts.count + 1)
        keyTones = plan.keyTones
        summary = Summary(voices: plan.voices.count)
        events.reserveCapacity(256)
        scheduled.reserveCapacity(256)
        recentDegrees.reserveCapacity(Self.loopWindow)
        softBalls.reserveCapacity(plan.world.pianoStarts.count + 1)
        controls.reserveCapacity(8)
        queued.reserveCapacity(8)
        preparedKeys = plan.preparedKeyChanges
        var centres = [Vector?](repeating: nil, count: 8)
        for bouncer in plan.world.bouncers where (1...7).contains(bouncer.tag) { centres[bouncer.tag] = bouncer.center }
        bouncerCentres = centres
        if let form = plan.form {
            self.form = FormProgress(plan: form, nudges: SplitMix64(seed: plan.seed, stream: RandomStream.form.rawValue),
                                     blank: blankSnapshot)
            formDue = -.infinity
        }
        ending = plan.ending.map { EndingProgress(plan: $0) }
        if ending != nil { endingDue = -.infinity }
    }

    /// Runs the session (from its start, or on from where `fastForward` left it) into `sinks`. Stops early (cleanly) when `stop` is raised.
    /// `progress` is called with the fraction done each time it passes a whole per cent.
    /// `pacer` is called after every step with the simulated time (live mode waits there).
    /// `controls` is polled at the start of every step; what it returns takes effect in that step.
    @discardableResult
    public func run(into sinks: [SessionSink], stop: StopSignal? = nil,
                    progress: ((Double) -> Void)? = nil,
                    pacer: ((Double) -> Void)? = nil,
                    controls source: ControlSource? = nil) throws(SessionError) -> Summary {
        let total = plan.stepCount
        var percent = -1
        do {
            // A session fast-forwarded to a position (`fastForward(to:tempo:)`) runs on from there.
            if !hasBegun {
                begin()
                try deliver(to: sinks, through: 0)
                try observer?.observe(BallPositions(world: world), at: 0)
            }
            var step = world.stepCount
            while step < total {
                if let stop, stop.isRaised {
                    summary.wasInterrupted = true
                    break
                }
                if playsScenes && world.time >= sceneDue { cueScenes(at: step) }
                if let source {
                    guard source.poll(step: step, into: &controls) else {
                        summary.wasInterrupted = true
                        break
                    }
                }
                turn(at: step)
                step += 1
                try deliver(to: sinks, through: world.time)
                try observer?.observe(BallPositions(world: world), at: world.time)
                if let progress {
                    let now = Int(step * 100 / max(total, 1))
                    if now != percent { percent = now; progress(Double(step) / Double(max(total, 1))) }
                }
                pacer?(world.time)
            }
            // An ending lets the notes sounding at its end ring.
            let ring = summary.wasInterrupted ? 0 : plan.ending?.ring ?? 0
            let end = world.time + ring
            scheduler.finish(at: world.time, ringing: ring, into: &scheduled)
            if ring > 0 { summary.ending = ended() }
            flush()
            try deliver(to: sinks, through: end)
            summary.duration = end
            summary.steps = world.stepCount
            summary.escapes = world.escapeCount
            for sink in sinks { try sink.finish(at: end) }
            return summary
        } catch {
            for sink in sinks { sink.abandon() }
            throw error
        }
    }

    /// One turn of the loop after the step's scenes and live controls have come: the controls
    /// applied, the form's and the ending's lines (only when due), the physics and what it played.
    func turn(at step: Int64) {
        if !controls.isEmpty { apply(at: step) }
        let now = world.time
        if now >= formDue { formLine(at: step) }
        if now >= endingDue { endingLine(at: step) }
        advance()
    }

    private func deliver(to sinks: [SessionSink], through time: Double) throws(SessionError) {
        guard !events.isEmpty else { return }
        for sink in sinks { try sink.record(events, through: time) }
        events.removeAll(keepingCapacity: true)
    }

    /// Moves performer output into the step's events.
    func flush() {
        // Most steps deliver nothing: return before the loop and the `removeAll`, which on an
        // empty array still goes through the array's generic replace path.
        guard !scheduled.isEmpty else { return }
        for event in scheduled {
            switch event {
            case .note(let note):
                if note.kind == .on { summary.notes[note.voice.rawValue] += 1 }
                events.append(.note(note))
            case .harmony(let time, let degree):
                events.append(.chord(performer.chordEvent(degree: degree, at: time)))
            }
        }
        scheduled.removeAll(keepingCapacity: true)
    }

    /// One fixed timestep: physics, hits, note-offs, then the session's rules.
    func advance() {
        world.step()
        let now = world.time
        for contact in world.contacts {
            let hit: Hit
            switch contact.target {
            case .bouncer(let degree):
                var heard = isHoming ? 1 : degree
                if approach.degree != 0 && contact.ball == 0 && heard == degree { heard = approached(degree) }
                hit = Hit(time: contact.time, ball: contact.ball, target: .degree(heard), speed: contact.speed)
                lastBouncerHit = contact.time
                noteDegree(degree)
            case .key(let number):
                hit = Hit(time: contact.time, ball: contact.ball, target: .key(number: number, tone: keyTones[number - 1]), speed: contact.speed)
                if contact.speed >= plan.performer.keysMinimumSpeed {
                    lastKeyHit[contact.ball] = contact.time
                } else if plan.rules.takesUp && !softBalls.contains(contact.ball) {
                    softBalls.append(contact.ball)
                }
            case .wall:
                hit = Hit(time: contact.time, ball: contact.ball, target: .wall, speed: contact.speed)
            case .floor:
                hit = Hit(time: contact.time, ball: contact.ball, target: .floor, speed: contact.speed)
            }
            // An intro: a ball not yet heard moves as ever, and its strikes play nothing.
            if let intro = plan.intro, !intro.hears(ball: contact.ball, at: contact.time) { continue }
            performer.perform(hit, scheduler: &scheduler)
        }
        performer.advance(through: now, scheduler: &scheduler)
        scheduler.deliver(through: now, into: &scheduled)
        flush()
        if !softBalls.isEmpty {
            // A ball too soft to strike is taken up and dropped again: no dribble, no ball at rest.
            for ball in softBalls where world.isIn(ball: ball) { dropBall(ball, at: now) }
            softBalls.removeAll(keepingCapacity: true)
        }
        if !world.escapes.isEmpty {
            for escape in world.escapes { events.append(.escape(time: escape.time, ball: escape.ball)) }
            sortEvents()
        }
        applyRules(at: now)
    }

    private func sortEvents() {
        // Stable by time: escapes are rare, so this path is too.
        let indexed = events.enumerated().sorted { a, b in
            a.element.time != b.element.time ? a.element.time < b.element.time : a.offset < b.offset
        }
        events = indexed.map(\.element)
    }

    private func noteDegree(_ degree: Int) {
        if recentDegrees.count == Self.loopWindow { recentDegrees.removeFirst() }
        recentDegrees.append(degree)
    }

    /// Whether the bass ball ping-pongs: the last `loopWindow` bouncers it hit are one or two.
    static func isLoop(_ degrees: [Int]) -> Bool {
        guard degrees.count == loopWindow else { return false }
        let first = degrees[0]
        var second = first
        for degree in degrees where degree != first {
            if second == first { second = degree } else if degree != second { return false }
        }
        return true
    }

    private func applyRules(at now: Double) {
        let rules = plan.rules
        // The bass ball must keep choosing harmony: kick it when it stops hitting bouncers
        // or ping-pongs between two of them.
        if now - lastBouncerHit >= rules.kickAfter || Self.isLoop(recentDegrees) {
            kickBass(at: now)
        }
        // Piano balls that lie still, or have found a place where they strike no key,
        // are dropped again from the top.
        // Checked every `ruleInterval` steps (0.05 s at 240 Hz): cheap for a thousand balls.
        guard (world.stepCount - rulePhase) % Self.ruleInterval == 0 else { return }
        let redrop = rules.redropAfter
        let rest = rules.restAfter
        let stillSpeedSquared = Self.stillSpeed * Self.stillSpeed
        for ball in 1..<lastKeyHit.count where world.isIn(ball: ball) {
            if world.isSleeping(ball: ball) {
                if stillSince[ball] < 0 { stillSince[ball] = now }
            } else {
                let v = world.velocity(ofBall: ball)
                if v.x * v.x + v.y * v.y < stillSpeedSquared {
                    if stillSince[ball] < 0 { stillSince[ball] = now }
                } else {
                    stillSince[ball] = -1
                }
            }
            if now - lastKeyHit[ball] >= redrop || (stillSince[ball] >= 0 && now - stillSince[ball] >= rest) {
                dropBall(ball, at: now)
            }
        }
    }

    func kickBass(at now: Double) {
        world.setVelocity(Self.kickDirection(&kicks), ofBall: 0)
        lastBouncerHit = now
        recentDegrees.removeAll(keepingCapacity: true)
        summary.kicks += 1
        events.append(.kick(time: now))
    }

    /// A seeded direction for the bass ball, not within 8° of an axis (no wall-to-wall ping-pong).
    static func kickDirection(_ random: inout SplitMix64) -> Vector {
        var angle = 0.0
        repeat {
            angle = random.uniform(0...(2 * Double.pi))
        } while abs(sin(2 * angle)) < 0.28
        return Vector(cos(angle), sin(angle))
    }

    func dropBall(_ ball: Int, at now: Double, across: Double? = nil) {
        let region = plan.layout.dropRegion
        let r = plan.rules.pianoRadius
        if let across {
            // A place chosen (`place`): there, at the top of the drop region, whatever lies near.
            place(ball, at: Vector(region.minX + min(max(across, 0), 1) * region.width, region.maxY), now: now)
            return
        }
        var spot = Vector(drops.uniform(region.minX...region.maxX), drops.uniform(region.minY...region.maxY))
        // Balls that pass through each other need no clear spot.
        for _ in 0..<(plan.rules.pianoBallsCollide ? 4 : 0) {
            var clear = true
            for other in 1..<lastKeyHit.count where other != ball && world.isIn(ball: other) {
                if (world.position(ofBall: other) - spot).length < 2.05 * r { clear = false; break }
            }
            if clear { break }
            spot = Vector(drops.uniform(region.minX...region.maxX), drops.uniform(region.minY...region.maxY))
        }
        place(ball, at: spot, now: now)
    }

    /// Ball `ball` at rest at `spot`, a drop.
    private func place(_ ball: Int, at spot: Vector, now: Double) {
        world.place(ball: ball, at: spot, velocity: .zero)
        lastKeyHit[ball] = now
        stillSince[ball] = -1
        summary.drops += 1
        events.append(.drop(time: now, ball: ball))
    }
}
