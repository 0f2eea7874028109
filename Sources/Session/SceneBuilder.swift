import Physics
import Pictures
import Theory

/// Turns a session's configuration into the plain values the `Pictures` module draws.
public enum SceneBuilder {
    /// Names of chord tones 1…4 as keys show them.
    static let toneNames = ["root", "3rd", "5th", "7th"]

    /// The world of `configuration` at its start: areas, walls, bouncers labelled with their
    /// degree and chord, keys with the chord tone they play, balls at their starts, a legend.
    public static func scene(for configuration: Configuration) -> Scene {
        let preset = configuration.preset
        let layout = configuration.layout
        let key = preset.key
        let bouncers = layout.bouncers.map { b -> Scene.Bouncer in
            let degree = ScaleDegree(b.tag)!
            return Scene.Bouncer(center: point(b.center), radius: b.radius, label: key.romanNumeral(of: degree),
                                 detail: key.seventhChord(on: degree).description, hue: b.tag - 1)
        }
        let keys = layout.keys.map { k -> Scene.Key in
            let tone = preset.keys.tones[k.tag - 1]
            return Scene.Key(box: box(k.frame), label: toneNames[tone - 1], hue: tone - 1)
        }
        var balls = [Scene.Ball(start: point(layout.bassStart), radius: preset.bass.radius, isBass: true)]
        balls += layout.pianoStarts.map { Scene.Ball(start: point($0), radius: preset.piano.radius, isBass: false) }
        let legend = [
            "seed \(configuration.seed)",
            "key \(key.description)",
            "gravity \(Format.plain(preset.gravity)) m/s²",
            "bass speed \(Format.fixed(preset.speed, decimals: 2)) m/s",
            "\(preset.piano.count) piano ball\(preset.piano.count == 1 ? "" : "s"), \(layout.keys.count) keys",
        ]
        return Scene(areas: [Scene.Area(box: box(layout.bassArea), name: "bass"),
                             Scene.Area(box: box(layout.pianoArea), name: "piano")],
                     fillers: layout.fillers.map(box), bouncers: bouncers, keys: keys, balls: balls,
                     title: preset.name, legend: legend)
    }

    static func point(_ v: Vector) -> Point { Point(v.x, v.y) }
    static func box(_ r: Rect) -> Box { Box(minX: r.minX, minY: r.minY, maxX: r.maxX, maxY: r.maxY) }

    /// The paths of every ball and every hit over the first `seconds` of the session.
    public static func trace(_ configuration: Configuration, seconds: Double, stop: StopSignal? = nil,
                             progress: ((Double) -> Void)? = nil) throws(SessionError) -> Trace {
        var traced = configuration
        traced.duration = seconds
        let simulator = Simulator(configuration: traced)
        let balls = traced.world.pianoStarts.count + 1
        // Every other step, or sparser so that a long trace of many balls stays under two
        // million points (32 MB).
        let interval = max(2, Int((Double(traced.stepCount) * Double(balls) / TraceRecorder.maximumPoints).rounded(.up)))
        let recorder = TraceRecorder(balls: balls, interval: interval)
        simulator.observer = recorder
        // Interrupted, the trace holds what was simulated until then.
        let summary = try simulator.run(into: [recorder], stop: stop, progress: progress)
        return Trace(paths: recorder.paths, hits: recorder.hits, duration: summary.duration)
    }
}

/// Records ball paths (every `interval` steps) and the positions of hits, for `--trace`.
final class TraceRecorder: SessionSink, StepObserver {
    var paths: [[Point]]
    var hits: [Trace.Hit] = []
    private var pending: [(ball: Int, velocity: Int, isBass: Bool)] = []
    private var steps = 0
    private let interval: Int

    /// Most path points a trace keeps.
    static let maximumPoints = 2_000_000.0

    init(balls: Int, interval: Int) {
        paths = Array(repeating: [], count: balls)
        self.interval = interval
    }

    func record(_ events: [SessionEvent], through time: Double) throws(SessionError) {
        for event in events {
            if case .note(let note) = event, note.kind == .on, note.ball >= 0, note.speed > 0 {
                pending.append((note.ball, note.velocity, note.voice == .bass))
            }
        }
    }

    func observe(_ balls: BallPositions, at time: Double) throws(SessionError) {
        // The hits of this step, where their balls stand after it (within one step of the contact).
        for hit in pending where hit.ball < balls.count {
            let p = balls.position(of: hit.ball)
            hits.append(Trace.Hit(position: Point(p.x, p.y), velocity: hit.velocity, isBass: hit.isBass))
        }
        pending.removeAll(keepingCapacity: true)
        defer { steps += 1 }
        guard steps % interval == 0 else { return }
        for index in 0..<min(balls.count, paths.count) {
            let p = balls.position(of: index)
            paths[index].append(Point(p.x, p.y))
        }
    }

    func finish(at time: Double) throws(SessionError) {}
    func abandon() {}
}
