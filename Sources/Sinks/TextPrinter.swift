// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Errors
import EventLog
import Performance
import Text
import Theory
import Vocabulary

/// Prints the performance as readable lines: time, who hit what, note, velocity, speed, and a
/// line for each chord change. Chords are named as the session's chord events name them (never
/// derived here); notes are spelled in the key of the chord playing.
public final class TextPrinter: SessionSink {
    private let output: TerminalOutput
    private var key: Key
    private let voices: VoiceTable
    private var chord = (name: "", numeral: "")
    private let drumNames: [Int: String]

    /// Prints to `output` for a session planned by `plan`.
    public init(output: TerminalOutput, plan: SessionPlan) {
        self.output = output
        key = plan.key
        voices = plan.voices
        drumNames = Dictionary(Drum.catalog.map { ($0.note, $0.name) }, uniquingKeysWith: { a, _ in a })
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let count = text.count
        guard count < width else { return text }
        let spaces = String(repeating: " ", count: width - count)
        return right ? spaces + text : text + spaces
    }

    /// The line for one event, or nil for note-offs (a chord's line also makes the lines after
    /// it name that chord and spell notes in its key).
    public func line(for event: SessionEvent) -> String? {
        let time = Self.pad(Format.fixed(event.time, decimals: 3), 10, right: true) + " s  "
        switch event {
        case .note(let note):
            guard note.kind == .on else { return nil }
            let pitch = Self.pad(key.spell(Pitch(midi: note.note)).name(), 4)
            let velocity = "vel " + Self.pad(String(note.velocity), 3, right: true)
            let speed = Self.pad(Format.fixed(note.speed, decimals: 2), 6, right: true) + " m/s"
            let bass = { (what: String) in
                time + Self.pad(what, 12) + "→ " + Self.pad(self.chord.numeral, 7) + pitch + "  " + velocity + "  " + speed + "  " + self.chord.name
            }
            let piano = { (key: Int, tone: String) in
                time + Self.pad("piano \(note.ball)", 12) + "→ " + Self.pad("key \(key)", 7) + pitch + "  " + velocity + "  " + speed + "  " + tone + " of " + self.chord.name
            }
            switch note.cause {
            case .opening: return bass("start")
            case .ending: return bass("ending")
            case .bassHit, .none: return bass("bass ball")
            case .leadingNote: return bass("leading")
            case .keyHit(let key, let tone): return piano(key, Chord.toneName(tone))
            case .melodyStep(let key, _): return piano(key, "melody")
            case .derived(let from, _):
                return time + Self.pad(voices[note.voice].logName, 12) + "→ " + Self.pad("", 7) + pitch + "  " + velocity + "  " + speed
                    + "  with the \(voices[from].logName) in " + chord.name
            case .drum(let source):
                let who = note.ball >= 0 ? (note.ball == 0 ? "bass ball" : "piano \(note.ball)") : source.rawValue
                return time + Self.pad(who, 12) + "→ " + Self.pad(source.rawValue, 7) + Self.pad(drumNames[note.note] ?? String(note.note), 15) + "  " + velocity
            }
        case .chord(let event):
            key = event.key
            chord = (event.name, event.numeral)
            return time + Self.pad("chord", 12) + "→ " + Self.pad(event.numeral, 7) + event.name + " in " + event.key.description
        case .escape(_, let ball):
            return time + "escape: ball \(ball) left its area and was put back"
        case .kick:
            return time + "kick: the bass ball was sent off in a new direction"
        case .drop(_, let ball):
            return time + "drop: piano \(ball) was dropped again from the top"
        case .live(_, _, let control):
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
