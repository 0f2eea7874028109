import Theory
import Performance

/// Prints the performance as readable lines: time, who hit what, note, velocity, speed.
public final class TextPrinter: SessionSink {
    private let output: TerminalOutput
    private let plan: SessionPlan
    private var key: Key
    private let voices: VoiceTable
    private var chords: [String]
    private var numerals: [String]
    private let drumNames: [Int: String]

    /// Prints to `output` for a session planned by `plan`.
    public init(output: TerminalOutput, plan: SessionPlan) {
        self.output = output
        self.plan = plan
        key = plan.key
        voices = plan.voices
        (numerals, chords) = ChordNames.of(plan.performer.chords, in: plan.key)
        drumNames = Dictionary(Drum.catalog.map { ($0.note, $0.name) }, uniquingKeysWith: { a, _ in a })
    }

    /// After a live key change, notes are spelled and chords named in the new key.
    private func follow(_ newKey: Key) {
        guard case .success(let change) = plan.keyChange(to: newKey) else { return }
        key = newKey
        (numerals, chords) = ChordNames.of(change.performer.chords, in: newKey)
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let count = text.count
        guard count < width else { return text }
        let spaces = String(repeating: " ", count: width - count)
        return right ? spaces + text : text + spaces
    }

    /// The line for one event, or nil for note-offs (a key change's line also makes the lines
    /// after it name chords and notes in the new key).
    public func line(for event: SessionEvent) -> String? {
        let time = Self.pad(Format.fixed(event.time, decimals: 3), 10, right: true) + " s  "
        switch event {
        case .note(let note):
            guard note.kind == .on else { return nil }
            let pitch = Self.pad(key.spell(Pitch(midi: note.note)).name(), 4)
            let velocity = "vel " + Self.pad(String(note.velocity), 3, right: true)
            let speed = Self.pad(Format.fixed(note.speed, decimals: 2), 6, right: true) + " m/s"
            switch voices[note.voice].source {
            case .bassBall:
                let what = note.tone == NoteEvent.leadingTone ? "leading" : note.ball == 0 && note.speed == 0 ? "start" : "bass ball"
                return time + Self.pad(what, 12) + "→ " + Self.pad(numerals[note.degree - 1], 7) + pitch + "  " + velocity + "  " + speed + "  " + chords[note.degree - 1]
            case .pianoBalls:
                let tone = note.tone == 0 ? "melody" : Chord.toneName(note.tone)
                return time + Self.pad("piano \(note.ball)", 12) + "→ " + Self.pad("key \(note.key)", 7) + pitch + "  " + velocity + "  " + speed + "  " + tone + " of " + chords[note.degree - 1]
            case .derived:
                return time + Self.pad("second", 12) + "→ " + Self.pad("", 7) + pitch + "  " + velocity + "  " + speed + "  with the keys in " + chords[note.degree - 1]
            case .percussion:
                let source = EventLogWriter.drumSources[min(max(note.drum, 0), EventLogWriter.drumSources.count - 1)]
                let who = note.ball >= 0 ? (note.ball == 0 ? "bass ball" : "piano \(note.ball)") : source
                return time + Self.pad(who, 12) + "→ " + Self.pad(source, 7) + Self.pad(drumNames[note.note] ?? String(note.note), 15) + "  " + velocity
            }
        case .escape(_, let ball):
            return time + "escape: ball \(ball) left its area and was put back"
        case .kick:
            return time + "kick: the bass ball was sent off in a new direction"
        case .drop(_, let ball):
            return time + "drop: piano \(ball) was dropped again from the top"
        case .live(_, _, let control):
            if case .key(let newKey) = control { follow(newKey) }
            return time + "control: " + control.text
        case .control:
            return nil
        }
    }

    public func record(_ events: [SessionEvent], through time: Double) throws(SessionError) {
        for event in events {
            if let text = line(for: event) { output.write(text + "\n") }
        }
    }

    public func finish(at time: Double) throws(SessionError) { output.flush() }

    public func abandon() { output.flush() }
}
