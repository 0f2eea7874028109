// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Performance
import Pictures
import Vocabulary

extension PlanDrawing {
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
        case .melody:
            guard performer.melody != nil else { return [] }
            let register = MelodyPlan.register(base: performer.melodyBase)
            return [register.lowerBound, register.upperBound]
        }
    }
}
