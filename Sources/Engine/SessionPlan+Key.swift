// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Performance
import Text
import Theory
import Vocabulary

/// A live key change worked out for a session: what the performer and the scheduler need to
/// play on in the new key (`Control.key`).
public struct KeyChange: Sendable {
    /// What the players need of the new key, worked out ahead (a form's section in another key
    /// changes key in the LV2 plugin's real-time thread).
    public var harmony: Harmony
    /// Each derived voice's rule worked out again in the new key, in voice order.
    public var derived: [(voice: VoiceID, derivation: Voice.Derivation)]

    /// The performer's configuration in the new key: the chord of each bouncer, the bass's
    /// roots, the keys' notes and the scale all follow it; everything else is the session's.
    public var performer: PerformerConfiguration { harmony.configuration }

    /// The rule of derived voice `voice` in the new key, nil for a voice that derives none.
    public func derivation(of voice: VoiceID) -> Voice.Derivation? {
        derived.first { $0.voice == voice }?.derivation
    }
}

extension SessionPlan {
    /// The session's key moved by `semitones` (its own key for 0).
    func key(transposedBy semitones: Int) -> Key {
        semitones == 0 ? key : Key(tonic: key.tonic.transposed(by: semitones), scale: key.scale)
    }

    /// The key changes the session's own plan makes, worked out ahead (those it can play): each
    /// form section's own key and the home key an ending comes back to, by semitones from the
    /// session's key, and the keys of its scenes (`semitones` nil).
    var preparedKeyChanges: [(semitones: Int?, change: KeyChange)] {
        var prepared: [(semitones: Int?, change: KeyChange)] = []
        if form != nil || ending != nil {
            var shifts = [0]
            for semitones in form?.allSemitones ?? [] where !shifts.contains(semitones) { shifts.append(semitones) }
            for semitones in shifts {
                if case .success(let change) = keyChange(to: key(transposedBy: semitones)) { prepared.append((semitones, change)) }
            }
        }
        for cue in scenes {
            for control in cue.controls {
                guard case .key(let key) = control, !prepared.contains(where: { $0.change.performer.key == key }),
                      case .success(let change) = keyChange(to: key) else { continue }
                prepared.append((nil, change))
            }
        }
        return prepared
    }

    /// The session's harmony in `key`, or why the session cannot play in it:
    /// - the scale must play the degree of every switched-on bouncer (a bouncer is a degree of
    ///   the key; the layout cannot change mid-session). A pentatonic or blues scale plays five
    ///   degrees, so it is refused while the session has bouncers on the other two; a
    ///   seven-degree mode is always accepted, also after a pentatonic start (the two extra
    ///   degrees have no bouncer);
    /// - each bouncer's chord of `bass.chords` must exist in `key` (a numeral naming a degree
    ///   the scale lacks does not);
    /// - every bass and keys note must stay within MIDI 0…127.
    public func keyChange(to key: Key) -> Result<KeyChange, ControlRejection> {
        let played = Set(key.degrees.map(\.number))
        let bouncers = layout.bouncers.map(\.tag).sorted()
        let missing = bouncers.filter { !played.contains($0) }
        guard missing.isEmpty else {
            let names = missing.map(String.init)
            let list = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " or " + names.last!
            return .failure(ControlRejection("\(key.name(.ascii)) has no degree \(list), where the session has bouncers (on \(bouncers.map(String.init).joined(separator: " "))); "
                + "a live key change keeps the bouncers, so the new scale must play each of their degrees"))
        }
        var configuration = performer
        switch Configuration.chords(in: key, specifications: chordSpecifications) {
        case .success(let chords): configuration.chords = chords
        case .failure(let failure): return .failure(ControlRejection("in \(key.name(.ascii)), \(failure.field): \(failure.message)"))
        }
        configuration.key = key
        if let outside = configuration.registerOutsideMIDI(tones: keyTones) {
            return .failure(ControlRejection("in \(key.name(.ascii)), \(outside.field) \(outside.message)"))
        }
        let derived = voices.ids.sorted().compactMap { id in voices[id].derived.map { (id, $0.rekeyed(to: key)) } }
        return .success(KeyChange(harmony: Harmony(configuration), derived: derived))
    }

    /// Why `control` cannot take effect in this session, or nil when it can. Every control the
    /// settings table's ranges accept can, except a key the session cannot play in
    /// (`keyChange(to:)`), a level for a voice it lacks and more balls than it has.
    public func rejection(of control: Control) -> ControlRejection? {
        if case .balls(let count) = control, count > world.pianoStarts.count {
            return ControlRejection("balls \(count): this session has \(world.pianoStarts.count) piano balls; accepted: 0…\(world.pianoStarts.count)")
        }
        if case .level(let name, _) = control, voice(named: name) == nil {
            let names = voices.ids.map { voices[$0].logName }.joined(separator: ", ")
            return ControlRejection("this session has no voice \"\(Quote.text(name))\"; its voices: \(names)")
        }
        guard case .key(let key) = control else { return nil }
        if case .failure(let rejection) = keyChange(to: key) { return rejection }
        return nil
    }

    /// The voice whose event-log name is `name` (`level` controls), if any.
    public func voice(named name: String) -> VoiceID? {
        voices.ids.first { voices[$0].logName == name }
    }
}
