import FileOutput
import Performance

/// Writes the session's events as JSON Lines, one object per note, escape, kick or drop.
///
/// Fields: `t` (seconds, 6 decimals: when it sounds), `kind` (`bass`, `key`, `drum`, `escape`,
/// `kick`, `drop`), `ball`, and for notes `voice` (the voice's name in lower case), `hit` (the
/// physical hit, seconds, never after `t`), `speed` (m/s, 4 decimals), `note`, `velocity`,
/// `degree`, plus `key` and `tone` for key hits and `source` (`wall`, `floor`, `stomp`,
/// `metronome`) for drums. Note-offs and controllers are not logged. A live session's log
/// also opens with a `session` line (`ReplayRecord`), records each live control as a `control`
/// line with its `step` (and its `value`, or for a key change its `tonic` and `mode`), and
/// closes with an `end` line. Written atomically.
public final class EventLogWriter: SessionSink {
    private let file: AtomicFile
    private let lines: Lines
    private let timestep: Double?

    /// Opens `path` (a temporary is created now, so a bad path fails before the session runs).
    /// With a `replay` record (live sessions) the log opens with a `session` line saying how to
    /// re-run it and closes with an `end` line giving the last step (`timestep` seconds each).
    public init(path: String, voices: VoiceTable, replay: ReplayRecord? = nil) throws(SessionError) {
        do {
            file = try AtomicFile(path: path)
        } catch {
            throw .cannotCreate("cannot write event log: \(error)")
        }
        lines = Lines(voices: voices)
        timestep = replay?.timestep
        if let replay {
            do {
                try file.write(replay.line + "\n")
            } catch {
                throw .io("cannot write event log: \(error)")
            }
        }
    }

    /// The JSON line (without newline) for one event, or nil for events not logged (note-offs, controllers).
    public func line(for event: SessionEvent) -> String? { lines.line(for: event) }

    /// Formats events as the log's lines for a session's voices.
    public struct Lines: Sendable {
        /// The voices table.
        public let voices: VoiceTable

        /// Lines for a session with these voices.
        public init(voices: VoiceTable) { self.voices = voices }

        /// The JSON line (without newline) for one event, or nil for events not logged (note-offs, controllers).
        public func line(for event: SessionEvent) -> String? {
            switch event {
            case .note(let note):
                guard note.kind == .on else { return nil }
                let voice = voices[note.voice]
                let kind: String
                switch voice.source {
                case .bassBall: kind = "bass"
                case .pianoBalls: kind = "key"
                case .percussion: kind = "drum"
                case .derived: kind = "second"
                }
                var text = "{\"t\":\(Format.fixed(note.time, decimals: 6)),\"kind\":\"\(kind)\",\"voice\":\"\(voice.logName)\",\"ball\":\(note.ball),\"hit\":\(Format.fixed(note.hit, decimals: 6)),\"speed\":\(Format.fixed(note.speed, decimals: 4)),\"note\":\(note.note),\"velocity\":\(note.velocity),\"degree\":\(note.degree)"
                if voice.source == .pianoBalls { text += ",\"key\":\(note.key),\"tone\":\(note.tone)" }
                if voice.source == .bassBall && note.tone == NoteEvent.leadingTone { text += ",\"leading\":true" }
                if voice.source == .percussion, note.drum > 0, note.drum < EventLogWriter.drumSources.count { text += ",\"source\":\"\(EventLogWriter.drumSources[note.drum])\"" }
                return text + "}"
            case .escape(let time, let ball):
                return "{\"t\":\(Format.fixed(time, decimals: 6)),\"kind\":\"escape\",\"ball\":\(ball)}"
            case .kick(let time):
                return "{\"t\":\(Format.fixed(time, decimals: 6)),\"kind\":\"kick\",\"ball\":0}"
            case .drop(let time, let ball):
                return "{\"t\":\(Format.fixed(time, decimals: 6)),\"kind\":\"drop\",\"ball\":\(ball)}"
            case .live(let time, let step, let control):
                var value = control.value.map { ",\"value\":\(Format.plain($0))" } ?? ""
                if case .key(let key) = control {
                    value = ",\"tonic\":\(Format.jsonString(key.spelledTonic.name(.ascii))),\"mode\":\(Format.jsonString(key.scale.name))"
                }
                return "{\"t\":\(Format.fixed(time, decimals: 6)),\"kind\":\"control\",\"step\":\(step),\"control\":\"\(control.name)\"\(value)}"
            case .control:
                return nil
            }
        }
    }

    /// What a drum note's `source` field says, by `NoteEvent.drum`.
    static let drumSources = ["", "wall", "floor", "stomp", "metronome"]

    public func record(_ events: [SessionEvent], through time: Double) throws(SessionError) {
        for event in events {
            guard let text = line(for: event) else { continue }
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
