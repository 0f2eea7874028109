import Theory
import Performance
import Vocabulary
import Presets

/// A live key change worked out for a session: what the performer and the scheduler need to
/// play on in the new key (`Control.key`).
public struct KeyChange: Sendable {
    /// The performer's configuration in the new key: the chord of each bouncer, the bass's
    /// roots, the keys' notes and the scale all follow it; everything else is the session's.
    public var performer: PerformerConfiguration
    /// Each derived voice's rule worked out again in the new key.
    public var derived: [VoiceID: Voice.Derivation]
}

extension SessionPlan {
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
        var derived: [VoiceID: Voice.Derivation] = [:]
        for id in voices.ids { derived[id] = voices[id].derived?.rekeyed(to: key) }
        return .success(KeyChange(performer: configuration, derived: derived))
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
