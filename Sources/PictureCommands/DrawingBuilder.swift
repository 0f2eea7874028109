// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Errors
import FileOutput
import Geometry
import Performance
import Physics
import Pictures
import Text
import Theory
import Vocabulary
import WorldDrawing

/// The paths and hits of a session's first seconds, for `clumsy draw --trace` (the world itself
/// is `PlanDrawing`'s, its piano-roll lanes `PlanDrawing.lanes(for:)`).
public enum DrawingBuilder {
    /// The paths of every ball and every bouncer and key hit over the first `seconds` of the session.
    public static func trace(_ session: SessionPlan, seconds: Double, stop: StopSignal? = nil,
                             progress: ((Double) -> Void)? = nil) throws(SessionError) -> Trace {
        let plan = session.cut(at: seconds)
        let simulator = Simulator(plan: plan)
        let pianoBalls = plan.world.pianoStarts.count
        // Every other step, or sparser so that a long trace stays under a quarter of a million
        // points (4 MB in memory, at most about 12 MB of SVG path data): the bass ball's path
        // up to 100 000 of them (so it stays a line), the piano balls' the rest.
        func interval(balls: Int, points: Double) -> Int {
            max(2, Int((Double(plan.stepCount) * Double(max(1, balls)) / points).rounded(.up)))
        }
        let recorder = TraceRecorder(balls: pianoBalls + 1,
                                     intervals: (bass: interval(balls: 1, points: TraceRecorder.maximumBassPoints),
                                                 piano: interval(balls: pianoBalls, points: TraceRecorder.maximumPoints - TraceRecorder.maximumBassPoints)),
                                     sources: plan.voices.voices.map(\.source))
        simulator.observer = recorder
        // Interrupted, the trace holds what was simulated until then.
        let summary = try simulator.run(into: [recorder], stop: stop, progress: progress)
        return Trace(paths: recorder.paths, hits: recorder.hits, hitCount: recorder.hitCount, duration: summary.duration)
    }
}

/// Records ball paths (every `interval` steps) and the positions of hits, for `--trace`.
///
/// A note may sound later than its hit (quantised, or a chord change held to the next beat
/// or bar), so each ball's last bouncer and key contacts are kept with where the ball stood
/// after that step, and a note is drawn where its physical hit (`NoteEvent.hit`) happened.
final class TraceRecorder: SessionSink, StepObserver {
    var paths: [[Vector]]
    /// The hits to draw: one per spot (`Trace.hitSpacing`), the latest, at most `Trace.maximumHits`.
    var hits: [Trace.Hit] = []
    /// Every note-on hit so far.
    var hitCount = 0
    /// Where in `hits` the hit drawn at a spot (grid cell, bass or not) is.
    private var spots: [Spot: Int] = [:]
    private struct Spot: Hashable { var x: Int, y: Int, isBass: Bool }
    private var pending: [(ball: Int, hit: Double, velocity: Int, isBass: Bool)] = []
    /// Per ball, its most recent contacts (oldest first).
    private var contacts: [[(time: Double, position: Vector)]]
    private var steps = 0
    /// Steps between path points: the bass ball's, the piano balls'.
    private let intervals: (bass: Int, piano: Int)
    private let sources: [Voice.Source]

    /// Most path points a trace keeps.
    static let maximumPoints = 250_000.0
    /// Most path points of the bass ball's path.
    static let maximumBassPoints = 100_000.0
    /// Contacts remembered per ball: enough for notes held back up to a bar.
    static let contactMemory = 64

    init(balls: Int, intervals: (bass: Int, piano: Int), sources: [Voice.Source]) {
        paths = Array(repeating: [], count: balls)
        contacts = Array(repeating: [], count: balls)
        self.intervals = intervals
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
            add(Trace.Hit(position: position, velocity: note.velocity, isBass: note.isBass))
        }
        pending.removeAll(keepingCapacity: true)
        defer { steps += 1 }
        if steps % intervals.bass == 0, !paths.isEmpty, balls.count > 0 { paths[0].append(balls.position(of: 0)) }
        guard steps % intervals.piano == 0 else { return }
        for index in 1..<max(1, min(balls.count, paths.count)) where balls.isIn(index) {
            paths[index].append(balls.position(of: index))
        }
    }

    /// Keeps `hit`, replacing an earlier one at the same spot; past `Trace.maximumHits` spots,
    /// a hit on a new spot is counted but not drawn.
    private func add(_ hit: Trace.Hit) {
        hitCount += 1
        let spot = Spot(x: Int((hit.position.x / Trace.hitSpacing).rounded(.down)),
                        y: Int((hit.position.y / Trace.hitSpacing).rounded(.down)), isBass: hit.isBass)
        if let index = spots[spot] {
            hits[index] = hit
        } else if hits.count < Trace.maximumHits {
            spots[spot] = hits.count
            hits.append(hit)
        }
    }

    func finish(at time: Double) throws(SessionError) {}
    func abandon() {}
}
