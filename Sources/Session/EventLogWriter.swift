import FileOutput
import Performance

/// Writes the session's events as JSON Lines, one object per hit, escape, kick or drop.
///
/// Fields: `t` (seconds, 6 decimals), `kind` (`bass`, `key`, `escape`, `kick`, `drop`),
/// `ball`, and for notes `speed` (m/s, 4 decimals), `note`, `velocity`, `degree`,
/// plus `key` and `tone` for key hits. Note-offs are not logged. Written atomically.
public final class EventLogWriter: SessionSink {
    private let file: AtomicFile
    private var line: [UInt8] = []

    private let timestep: Double?

    /// Opens `path` (a temporary is created now, so a bad path fails before the session runs).
    /// With a `replay` record (live sessions) the log opens with a `session` line saying how to
    /// re-run it and closes with an `end` line giving the last step (`timestep` seconds each).
    public init(path: String, replay: ReplayRecord? = nil) throws(SessionError) {
        do {
            file = try AtomicFile(path: path)
        } catch {
            throw .cannotCreate("cannot write event log: \(error)")
        }
        line.reserveCapacity(160)
        timestep = replay?.timestep
        if let replay {
            do {
                try file.write(replay.line + "\n")
            } catch {
                throw .io("cannot write event log: \(error)")
            }
        }
    }

    /// The JSON line (without newline) for one event, or nil for events not logged (note-offs).
    public static func line(for event: SessionEvent) -> String? {
        switch event {
        case .note(let note):
            guard note.kind == .on else { return nil }
            var text = "{\"t\":\(Format.fixed(note.time, decimals: 6)),\"kind\":\"\(note.voice == .bass ? "bass" : "key")\",\"ball\":\(note.ball),\"speed\":\(Format.fixed(note.speed, decimals: 4)),\"note\":\(note.note),\"velocity\":\(note.velocity),\"degree\":\(note.degree)"
            if note.voice == .keys { text += ",\"key\":\(note.key),\"tone\":\(note.tone)" }
            return text + "}"
        case .escape(let time, let ball):
            return "{\"t\":\(Format.fixed(time, decimals: 6)),\"kind\":\"escape\",\"ball\":\(ball)}"
        case .kick(let time):
            return "{\"t\":\(Format.fixed(time, decimals: 6)),\"kind\":\"kick\",\"ball\":0}"
        case .drop(let time, let ball):
            return "{\"t\":\(Format.fixed(time, decimals: 6)),\"kind\":\"drop\",\"ball\":\(ball)}"
        case .control(let time, let step, let control):
            let value = control.value.map { ",\"value\":\(Format.plain($0))" } ?? ""
            return "{\"t\":\(Format.fixed(time, decimals: 6)),\"kind\":\"control\",\"step\":\(step),\"control\":\"\(control.name)\"\(value)}"
        }
    }

    public func record(_ events: [SessionEvent], through time: Double) throws(SessionError) {
        for event in events {
            guard let text = Self.line(for: event) else { continue }
            do {
                try file.write(text + "\n")
            } catch {
                throw .io("cannot write event log: \(error)")
            }
        }
    }

    public func finish(at time: Double) throws(SessionError) {
        do {
            if let timestep {
                try file.write("{\"t\":\(Format.fixed(time, decimals: 6)),\"kind\":\"end\",\"step\":\(Int64((time / timestep).rounded()))}\n")
            }
            try file.commit()
        } catch {
            throw .io("cannot write event log: \(error)")
        }
    }

    public func abandon() { file.abandon() }
}
