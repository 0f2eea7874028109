// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Theory
import Vocabulary

/// The harmony in force, shared by the players: the key's chords, the bass's roots and the
/// keys' notes of each degree, the active chord and a change waiting for its beat or bar line.
/// The bass changes it; the keys and drums play in it.
struct HarmonyState: Sendable {
    /// The configuration in use (its key and chords change with a live key change).
    private(set) var configuration: PerformerConfiguration
    /// Scale degree (1…7) of the active chord.
    var activeDegree = 1
    /// A chord change waiting for its beat or bar line.
    var pending: (degree: Int, time: Double)?
    /// The chord change the hit just played asked for (its degree and when it takes over),
    /// for the other players to follow; the performer clears it.
    var change: (degree: Int, time: Double)?
    /// The chord of each degree (index 0 = degree 1).
    private(set) var chords: [Chord] = []
    /// Each degree's chord named in the key.
    private(set) var names: (numerals: [String], symbols: [String]) = ([], [])
    /// The bass note of each degree.
    private(set) var bassNotes: [Int] = []
    /// The keys' note of each degree's chord tones (rewritten at each chord change under `smooth`).
    private(set) var keysNotes: [[Int]] = []
    /// The voice leader of the `smooth` voicing, else nil.
    var leader: VoiceLeader?
    /// Each degree's pitch classes (bit n = pitch class n).
    private(set) var chordMasks: [Int] = []
    /// `melodic`: the scale's notes in the keys' two octaves, ascending.
    private(set) var scaleNotes: [Int] = []
    /// The melody voice's scale notes in its register, ascending (empty without a melody voice).
    private(set) var melodyNotes: [Int] = []

    /// The harmony of `configuration`, on chord I.
    init(_ configuration: PerformerConfiguration) {
        self.configuration = configuration
        adopt(Harmony(configuration))
        if configuration.voicing == .smooth {
            leader = VoiceLeader(register: Performer.smoothRegister(base: configuration.keysBase))
        }
    }

    /// Becomes `other` (a saved state, or this one's save), keeping its own buffers for what
    /// changes as it plays (the keys' notes and the voice leader, rewritten at each chord change
    /// under `smooth`); what only a key change replaces is shared.
    mutating func assign(from other: HarmonyState) {
        adopt(other.harmony)
        activeDegree = other.activeDegree
        pending = other.pending
        change = other.change
        if leader != nil, let saved = other.leader { leader!.assign(from: saved) } else { leader = other.leader }
    }

    /// This state's tables (their buffers shared).
    private var harmony: Harmony {
        Harmony(configuration: configuration, chords: chords, names: names, bassNotes: bassNotes, keysNotes: keysNotes,
                chordMasks: chordMasks, scaleNotes: scaleNotes, melodyNotes: melodyNotes)
    }

    /// Takes the chords, roots, keys' notes and scale of `harmony` (a new key); the active
    /// degree and a waiting change stay. The keys' notes are written into this state's own
    /// buffers (rewritten in place at each chord change under `smooth`), so a harmony prepared
    /// ahead is adopted without an allocation (`Harmony`).
    mutating func adopt(_ harmony: Harmony) {
        configuration = harmony.configuration
        chords = harmony.chords
        names = harmony.names
        bassNotes = harmony.bassNotes
        if keysNotes.count == harmony.keysNotes.count {
            for degree in keysNotes.indices { keysNotes[degree].overwrite(with: harmony.keysNotes[degree]) }
        } else {
            keysNotes = harmony.keysNotes.map { $0.map { $0 } }   // buffers of its own
        }
        chordMasks = harmony.chordMasks
        scaleNotes = harmony.scaleNotes
        melodyNotes = harmony.melodyNotes
    }

    /// Under `smooth` voicing, voices the chord of `degree` from the keys' last chord.
    mutating func lead(to degree: Int) {
        // In place (leader!, keysNotes[i]): no copy, so nothing allocates at a chord change.
        guard leader != nil else { return }
        leader!.lead(to: chords[degree - 1])
        PerformerConfiguration.keyNotes(voiced: leader!.previous, into: &keysNotes[degree - 1])
    }

    /// A waiting chord change due by `time` takes over.
    mutating func takeOver(dueBy time: Double) {
        if let change = pending, time >= change.time { activeDegree = change.degree; pending = nil }
    }

    /// The degree of the chord playing at `time` (the waiting one once due).
    func degree(at time: Double) -> Int {
        if let change = pending, time >= change.time { return change.degree }
        return activeDegree
    }
}

/// What the players need of a key, worked out from a performer configuration: each degree's
/// chord, its name, its bass root, the keys' notes of its tones and its pitch classes, and the
/// melody's scale notes. Worked out ahead (`SessionPlan.keyChange(to:)`), so that a key change
/// in a real-time caller (a form's section in another key) allocates nothing (`HarmonyState.adopt`).
public struct Harmony: Sendable {
    /// The performer configuration it is worked out from.
    public let configuration: PerformerConfiguration
    let chords: [Chord]
    let names: (numerals: [String], symbols: [String])
    let bassNotes: [Int]
    let keysNotes: [[Int]]
    let chordMasks: [Int]
    let scaleNotes: [Int]
    let melodyNotes: [Int]
}

extension Harmony {
    /// The harmony of `configuration`.
    public init(_ configuration: PerformerConfiguration) {
        self.configuration = configuration
        chords = configuration.chords
        bassNotes = (1...7).map(configuration.bassNote(degree:))
        keysNotes = configuration.chords.map { chord in
            PerformerConfiguration.keyNotes(voiced: configuration.voicing.pitches(of: chord, base: configuration.keysBase).map(\.midi))
        }
        chordMasks = chords.map { chord in chord.tones.reduce(0) { $0 | 1 << $1.value } }
        let key = configuration.key
        names = ChordNames.of(chords, in: key)
        scaleNotes = Performer.smoothRegister(base: configuration.keysBase).filter { key.contains(PitchClass($0)) }
        melodyNotes = configuration.melody == nil ? []
            : MelodyPlan.register(base: configuration.melodyBase).filter { key.contains(PitchClass($0)) && (0...127).contains($0) }
    }
}
