import Geometry
import Performance
import Physics
import Pictures
import Theory

/// Turns a session plan into the plain values the `Pictures` module draws.
public enum SceneBuilder {
    /// Names of chord tones 1…4 as keys show them.
    static let toneNames = ["root", "3rd", "5th", "7th"]

    /// The world of `plan` at its start: areas, walls, bouncers labelled with their degree and
    /// chord, keys with the chord tone they play, balls at their starts, a legend.
    public static func scene(for plan: SessionPlan) -> Scene {
        let layout = plan.layout
        let key = plan.key
        let bouncers = layout.bouncers.map { b -> Scene.Bouncer in
            let degree = ScaleDegree(b.tag)!
            return Scene.Bouncer(center: b.center, radius: b.radius, label: key.romanNumeral(of: degree),
                                 detail: key.symbol(of: key.seventhChord(on: degree)), hue: b.tag - 1)
        }
        let keys = layout.keys.map { k -> Scene.Key in
            let tone = plan.keyTones[k.tag - 1]
            return Scene.Key(box: k.frame, label: toneNames[tone - 1], hue: tone - 1)
        }
        var balls = [Scene.Ball(start: layout.bassStart, radius: plan.world.bassRadius, isBass: true)]
        balls += layout.pianoStarts.map { Scene.Ball(start: $0, radius: plan.rules.pianoRadius, isBass: false) }
        let pianoBalls = layout.pianoStarts.count
        let legend = [
            "seed \(plan.seed)",
            "key \(key.description)",
            "\(Format.plain(plan.clock.tempo)) bpm, \(plan.clock.meter.description)",
            "gravity \(Format.plain(plan.gravity)) m/s²",
            "bass speed \(Format.fixed(plan.speed, decimals: 2)) m/s",
            "\(pianoBalls) piano ball\(pianoBalls == 1 ? "" : "s"), \(layout.keys.count) keys",
        ]
        return Scene(areas: [Scene.Area(box: layout.bassArea, name: "bass"),
                             Scene.Area(box: layout.pianoArea, name: "piano")],
                     fillers: layout.fillers, bouncers: bouncers, keys: keys, balls: balls,
                     title: Quote.text(plan.name), legend: legend)
    }

    /// One piano-roll lane per row of the voices table (named as its MIDI track), each
    /// spanning the pitches the voice can play in this session.
    public static func lanes(for plan: SessionPlan) -> [Roll.Lane] {
        plan.voices.voices.map { voice in
            // A derived voice (the second voice) spans its parent's pitches moved as it moves them.
            let pitches = voice.derived.map { derivation in
                Self.pitches(of: plan.voices[derivation.from].source, plan: plan).map { derivation.notes[min(max($0, 0), 127)] }
            } ?? Self.pitches(of: voice.source, plan: plan)
            let low = pitches.min() ?? 60, high = pitches.max() ?? 72
            return Roll.Lane(name: voice.name, pitches: low...max(high, low + 11))
        }
    }

    /// Every MIDI note a voice of `source` can play in `plan`.
    static func pitches(of source: Voice.Source, plan: SessionPlan) -> [Int] {
        let performer = plan.performer
        switch source {
        case .bassBall:
            return (1...7).map(performer.bassNote(degree:))
        case .pianoBalls:
            let fixed = (1...7).flatMap { d in plan.keyTones.map { performer.keysNote(degree: d, tone: $0) } }
            // Smooth voicing and the melodic keys move inside two octaves from the keys' base.
            guard performer.voicing == .smooth || performer.melodicSteps != nil else { return fixed }
            let register = Performer.smoothRegister(base: performer.keysBase)
            return fixed + [register.lowerBound, register.upperBound]
        case .percussion:
            let drums = performer.percussion
            var notes = [drums.bassWalls, drums.walls, drums.floor].compactMap { $0?.note }
            if !drums.stompBeats.isEmpty { notes.append(drums.stomp.note) }
            if drums.metronome { notes += ["high-wood-block", "low-wood-block"].compactMap { Drum.named($0)?.note } }
            return notes
        case .derived:
            return []   // `lanes` maps the parent voice's pitches
        }
    }

    /// The paths of every ball and every bouncer and key hit over the first `seconds` of the session.
    public static func trace(_ configuration: Configuration, seconds: Double, stop: StopSignal? = nil,
                             progress: ((Double) -> Void)? = nil) throws(SessionError) -> Trace {
        var traced = configuration
        traced.duration = seconds
        let plan = SessionPlan(configuration: traced)
        let simulator = Simulator(plan: plan)
        let balls = plan.world.pianoStarts.count + 1
        // Every other step, or sparser so that a long trace of many balls stays under two
        // million points (32 MB).
        let interval = max(2, Int((Double(plan.stepCount) * Double(balls) / TraceRecorder.maximumPoints).rounded(.up)))
        let recorder = TraceRecorder(balls: balls, interval: interval, sources: plan.voices.voices.map(\.source))
        simulator.observer = recorder
        // Interrupted, the trace holds what was simulated until then.
        let summary = try simulator.run(into: [recorder], stop: stop, progress: progress)
        return Trace(paths: recorder.paths, hits: recorder.hits, duration: summary.duration)
    }
}

/// Records ball paths (every `interval` steps) and the positions of hits, for `--trace`.
///
/// A note may sound later than its hit (quantised, or a chord change held to the next beat
/// or bar), so each ball's last bouncer and key contacts are kept with where the ball stood
/// after that step, and a note is drawn where its physical hit (`NoteEvent.hit`) happened.
final class TraceRecorder: SessionSink, StepObserver {
    var paths: [[Vector]]
    var hits: [Trace.Hit] = []
    private var pending: [(ball: Int, hit: Double, velocity: Int, isBass: Bool)] = []
    /// Per ball, its most recent contacts (oldest first).
    private var contacts: [[(time: Double, position: Vector)]]
    private var steps = 0
    private let interval: Int
    private let sources: [Voice.Source]

    /// Most path points a trace keeps.
    static let maximumPoints = 2_000_000.0
    /// Contacts remembered per ball: enough for notes held back up to a bar.
    static let contactMemory = 64

    init(balls: Int, interval: Int, sources: [Voice.Source]) {
        paths = Array(repeating: [], count: balls)
        contacts = Array(repeating: [], count: balls)
        self.interval = interval
        self.sources = sources
    }

    func record(_ events: [SessionEvent], through time: Double) throws(SessionError) {
        for event in events {
            guard case .note(let note) = event, note.kind == .on, note.ball >= 0, note.speed > 0 else { continue }
            let source = sources[note.voice.rawValue]
            guard source != .percussion else { continue }
            pending.append((note.ball, note.hit, note.velocity, source == .bassBall))
        }
    }

    func observe(_ balls: BallPositions, at time: Double) throws(SessionError) {
        for contact in balls.contacts where contact.ball < contacts.count {
            switch contact.target {
            case .bouncer, .key:
                if contacts[contact.ball].count == Self.contactMemory { contacts[contact.ball].removeFirst() }
                contacts[contact.ball].append((contact.time, balls.position(of: contact.ball)))
            case .wall, .floor:
                break
            }
        }
        // The notes that sounded by now, drawn where their balls stood after the hit's step
        // (within one step of the contact).
        for note in pending where note.ball < balls.count {
            let position = contacts[note.ball].last(where: { $0.time == note.hit })?.position
                ?? balls.position(of: note.ball)
            hits.append(Trace.Hit(position: position, velocity: note.velocity, isBass: note.isBass))
        }
        pending.removeAll(keepingCapacity: true)
        defer { steps += 1 }
        guard steps % interval == 0 else { return }
        for index in 0..<min(balls.count, paths.count) {
            paths[index].append(balls.position(of: index))
        }
    }

    func finish(at time: Double) throws(SessionError) {}
    func abandon() {}
}
