// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Theory
import Vocabulary

/// Everything the performer needs to turn hits into note intents.
public struct PerformerConfiguration: Sendable, Hashable {
    /// Key and scale of the session.
    public var key: Key
    /// Lowest pitch of the bass register: degree roots are folded into [bassBase, bassBase + 12).
    public var bassBase: Pitch
    /// Base pitch of the keys' voicing (for `folded`, the octave the root, 3rd and 5th fold into).
    public var keysBase: Pitch
    /// How the active chord's tones are placed in the keys register.
    public var voicing: Voicing
    /// Bass hits slower than this along the normal are ignored, m/s.
    public var bassMinimumSpeed: Double
    /// Key (and piano-ball drum) hits slower than this along the normal are ignored (resting contacts), m/s.
    public var keysMinimumSpeed: Double
    /// When a new chord takes over.
    public var chordChange: ChordChange
    /// End ringing key notes that are not tones of the new chord when the chord changes.
    public var endsNonChordTones: Bool
    /// The keys' dribble gate, or nil for none.
    public var dribble: DribbleGate?
    /// Drums.
    public var percussion: PercussionPlan
    /// Number of piano balls (for per-ball state).
    public var pianoBalls: Int
    /// The chord of each degree's bouncer (index 0 = degree 1): by default the scale's own
    /// seventh chords (`Key.scaleChord`), or the chords a preset gives (`bass.chords`).
    public var chords: [Chord]

    /// The bass's leading note a grid step before each new root (when the grid leaves room).
    public var approach = Approach.off
    /// Under `melodic` keys, the scale steps (−2…+2) each key (left to right) moves the melody
    /// by; nil plays chord tones.
    public var melodicSteps: [Int]?
    /// The melody voice's plan, or nil for no melody voice.
    public var melody: MelodyPlan?
    /// The base of the melody voice's register (`MelodyPlan.register(base:)`).
    public var melodyBase = Pitch(midi: 72)

    /// The steps of `count` keys under `melodic`: spread evenly from −2 (left) to +2 (right),
    /// rounded, a 0 (the middle of an odd count) made +1 so that every strike moves:
    /// 3 keys −2 +1 +2, 4 keys −2 −1 +1 +2, 5 keys −2 −1 +1 +1 +2.
    public static func melodicSteps(keys count: Int) -> [Int] {
        guard count > 1 else { return [1] }
        return (0..<count).map { k in
            let step = Int((-2 + 4 * Double(k) / Double(count - 1)).rounded())
            return step == 0 ? 1 : step
        }
    }

    /// The most chord tones a key can ask for (a ninth chord's five).
    public static let maximumTone = 5

    /// Creates a configuration; the musical-time settings default to the original app's behaviour.
    public init(key: Key, bassBase: Pitch, keysBase: Pitch, voicing: Voicing,
                bassMinimumSpeed: Double, keysMinimumSpeed: Double,
                chordChange: ChordChange = .hit, endsNonChordTones: Bool = false, dribble: DribbleGate? = nil,
                percussion: PercussionPlan = PercussionPlan(), pianoBalls: Int = 4,
                chords: [Chord]? = nil) {
        self.key = key
        self.bassBase = bassBase
        self.keysBase = keysBase
        self.voicing = voicing
        self.bassMinimumSpeed = bassMinimumSpeed
        self.keysMinimumSpeed = keysMinimumSpeed
        self.chordChange = chordChange
        self.endsNonChordTones = endsNonChordTones
        self.dribble = dribble
        self.percussion = percussion
        self.pianoBalls = pianoBalls
        self.chords = chords ?? ScaleDegree.all.map { key.scaleChord(on: $0, toneCount: 4) }
        self.melodicSteps = nil
    }
}

extension PerformerConfiguration {
    /// The bass note (MIDI) of degree 1…7.
    public func bassNote(degree: Int) -> Int {
        bassBase.nextUp(to: chords[degree - 1].root).midi
    }

    /// The keys note (MIDI) of chord tone 1…5 of degree 1…7's chord (see `keyNotes(voiced:)`).
    public func keysNote(degree: Int, tone: Int) -> Int {
        Self.keyNotes(voiced: voicing.pitches(of: chords[degree - 1], base: keysBase).map(\.midi))[tone - 1]
    }

    /// The register field (`bass.register` or `keys.register`) that puts a bass note, or a keys
    /// note of one of `tones` (chord tones 1…5), of some degree outside MIDI 0…127, with what
    /// it does as a sentence; nil when every note fits.
    public func registerOutsideMIDI(tones: [Int]) -> (field: String, message: String)? {
        for degree in 1...7 {
            guard (0...127).contains(bassNote(degree: degree)) else {
                return ("bass.register", "puts bass notes outside MIDI 0…127")
            }
            for tone in tones where !(0...127).contains(keysNote(degree: degree, tone: tone)) {
                return ("keys.register", "puts chord tones outside MIDI 0…127 with the \(voicing.rawValue) voicing")
            }
        }
        return nil
    }

    /// A voiced chord's notes extended to `maximumTone` key tones. Tone k of a chord with n
    /// tones is its k-th tone; a tone the chord lacks (k > n, e.g. tone 4 of a triad) is tone
    /// k − n an octave up (a triad's 4th key plays the root an octave above the voiced root).
    public static func keyNotes(voiced: [Int]) -> [Int] {
        var notes: [Int] = []
        keyNotes(voiced: voiced, into: &notes)
        return notes
    }

    /// `keyNotes(voiced:)` written over `notes` (in place, no allocation, when it already holds
    /// `maximumTone` notes: a chord change under `smooth` voicing, in a real-time callback).
    static func keyNotes(voiced: [Int], into notes: inout [Int]) {
        let n = max(1, voiced.count)
        if notes.count != maximumTone { notes = [Int](repeating: 0, count: maximumTone) }
        for k in 0..<maximumTone { notes[k] = voiced.isEmpty ? 60 : voiced[k % n] + 12 * (k / n) }
    }
}

/// Turns hits into note intents for the scheduler, through its players: the bass, the keys
/// and the drums (`Player`), each the row of the voices table it plays. The harmony in force
/// (`HarmonyState`) is theirs to share: the bass changes it, the keys and drums play in it.
///
/// Pure and deterministic: no clock reading, no randomness, no I/O. Hits must arrive in time
/// order, with `advance(through:)` after each step's hits.
public struct Performer: Sendable {
    private var state: HarmonyState
    private var bass: BassPlayer
    private var keys: KeysPlayer
    private var drums: DrumPlayer?
    private var melody: MelodyPlayer?

    /// The configuration in use (its key and chords change with a live key change).
    public var configuration: PerformerConfiguration { state.configuration }
    /// Scale degree (1…7) of the active chord; the session starts on 1.
    public var activeDegree: Int { state.activeDegree }
    /// The chord of each degree's bouncer (index 0 = degree 1), in the current key.
    public var chords: [Chord] { state.chords }

    /// Creates a performer for a session with these voices (each player plays the first row
    /// of its source); nothing sounds until `start`.
    public init(configuration: PerformerConfiguration, voices: VoiceTable) {
        state = HarmonyState(configuration)
        let bassVoice = voices.id(of: .bassBall)!
        bass = BassPlayer(voice: bassVoice, curve: voices[bassVoice].curve)
        let keysVoice = voices.id(of: .pianoBalls)!
        keys = KeysPlayer(voice: keysVoice, curve: voices[keysVoice].curve, balls: configuration.pianoBalls, state: state)
        drums = voices.id(of: .percussion).map { DrumPlayer(voice: $0, curve: voices[$0].curve, bassCurve: voices[bassVoice].curve) }
        if let plan = configuration.melody, let id = voices.id(of: .melody) {
            melody = MelodyPlayer(voice: id, curve: voices[id].curve, plan: plan, state: state)
        }
    }

    /// A live key change at `time` (the start of a step). `harmony` is the session's in the new
    /// key (`SessionPlan.keyChange(to:)`): its chords, bass roots, keys' notes and scale are
    /// played from `time` on. Nothing is allocated (a form's section in its own key changes key
    /// in the LV2 plugin's real-time thread).
    ///
    /// The harmony stays on its degree: the active chord becomes that degree's chord in the new
    /// key, and a chord change still waiting for its beat or bar line brings its degree's new
    /// chord (under `smooth` voicing both are voiced on from the chord the keys last had). The
    /// melody goes on from the new scale's note nearest its last one.
    ///
    /// Notes struck before the change but sounding after it (queued for their grid, beat or bar
    /// line) are played in the new key, as if struck now: a key note as the same chord tone of
    /// its degree's new chord, a melody note as the nearest note of the new scale, a bass root as
    /// the degree's new root and its leading note as the approach to that root.
    ///
    /// Notes already sounding are not cut: a key change is heard as a chord change and follows
    /// the session's rule for those. They ring on, unless the session ends non-chord tones at a
    /// chord change (`time.endNonChordTones`); then the keys' notes outside the new active chord
    /// end at `time`. No note is added: the bass plays the new roots when the ball next strikes.
    public mutating func changeKey(to configuration: PerformerConfiguration, at time: Double, scheduler: inout Scheduler) {
        changeKey(to: Harmony(configuration), at: time, scheduler: &scheduler)
    }

    /// `changeKey(to:at:scheduler:)` with the new key's harmony worked out ahead: allocates nothing.
    public mutating func changeKey(to harmony: Harmony, at time: Double, scheduler: inout Scheduler) {
        let oldScale = state.scaleNotes   // not the whole state: its keys' notes are rewritten in place
        let oldMelody = state.melodyNotes
        state.adopt(harmony)
        // The chord playing is renamed in the new key from now on (a change still waiting is
        // named when it takes over).
        scheduler.changeHarmony(to: state.activeDegree, at: time, always: true)
        state.lead(to: state.activeDegree)   // nothing without a voice leader
        if let pending = state.pending, pending.degree != state.activeDegree { state.lead(to: pending.degree) }
        keys.changeKey(at: time, fromScale: oldScale, state: state, scheduler: &scheduler)
        bass.changeKey(at: time, fromScale: oldScale, state: state, scheduler: &scheduler)
        drums?.changeKey(at: time, fromScale: oldScale, state: state, scheduler: &scheduler)
        melody?.changeKey(at: time, fromScale: oldMelody, state: state, scheduler: &scheduler)
    }

    /// The index of the note of `notes` (ascending, not empty) nearest `note`; the lower on a tie.
    static func nearest(to note: Int, in notes: [Int]) -> Int {
        var best = 0
        for (index, candidate) in notes.enumerated() where abs(candidate - note) < abs(notes[best] - note) { best = index }
        return best
    }

    /// The keys' register under `smooth` voicing: two octaves from the keys' base (MIDI notes).
    public static func smoothRegister(base: Pitch) -> ClosedRange<Int> { base.midi...(base.midi + 23) }

    /// The melody's first pointer: the tonic nearest the middle of the register.
    static func melodyStart(_ notes: [Int], tonic: PitchClass) -> Int {
        guard let middle = notes.first.map({ $0 + 6 }) else { return 0 }
        var best = 0
        for (index, note) in notes.enumerated() where PitchClass(note) == tonic {
            if abs(note - middle) < abs(notes[best] - middle) || PitchClass(notes[best]) != tonic { best = index }
        }
        return best
    }

    /// The active chord.
    public var activeChord: Chord { state.chords[state.activeDegree - 1] }

    /// The chord event of degree 1…7's chord taking over at `time`, named in the current key.
    public func chordEvent(degree: Int, at time: Double) -> ChordEvent {
        ChordEvent(time: time, degree: degree, chord: state.chords[degree - 1], key: state.configuration.key,
                   name: state.names.symbols[degree - 1], numeral: state.names.numerals[degree - 1])
    }

    /// The bass note (MIDI) of a degree 1…7.
    public func bassNote(degree: Int) -> Int { state.bassNotes[degree - 1] }

    /// The keys note (MIDI) of chord tone 1…5 of degree 1…7's chord.
    public func keysNote(degree: Int, tone: Int) -> Int { state.keysNotes[degree - 1][tone - 1] }

    /// Becomes `other` (a form's save of this performer), keeping its own buffers: an
    /// assignment would share `other`'s, and the next hit would copy them (an allocation in a
    /// real-time caller). `other` must be of the same session.
    public mutating func assign(from other: Performer) {
        state.assign(from: other.state)
        keys.assign(from: other.keys)
        if drums != nil, let counted = other.drums { drums!.keepCounting(as: counted) }
        if melody != nil, let saved = other.melody { melody!.assign(from: saved) }
    }

    /// Form: plays again as `saved` (this performer at an earlier bar line), `offset` seconds
    /// later: its harmony, voicing and melody, its waiting chord change and dribble times moved
    /// by `offset`; the beat count of the stomp and metronome goes on.
    /// Copied in place, so nothing is allocated then or when it plays on (`assign(from:)`).
    public mutating func resume(_ saved: Performer, after offset: Double) {
        let counting = drums
        assign(from: saved)
        drums = counting   // the beat count goes on
        if let change = state.pending { state.pending = (change.degree, change.time + offset) }
        keys.moveHits(by: offset)
        melody?.move(by: offset)
    }

    /// A live tempo change at `time`, `stretch` times as many seconds a beat as before: the
    /// waiting chord change keeps its place in the bar, as the scheduler's queue does
    /// (`Scheduler.changeTempo`).
    public mutating func changeTempo(stretch: Double, at time: Double) {
        if let change = state.pending, change.time > time { state.pending = (change.degree, time + (change.time - time) * stretch) }
    }

    /// Opens the session at `time`: chord I becomes active and its root sounds in the bass, loud.
    public mutating func start(at time: Double, scheduler: inout Scheduler) {
        state.activeDegree = 1
        state.pending = nil
        state.leader?.reset()
        state.lead(to: 1)
        scheduler.changeHarmony(to: 1, at: time)
        bass.start(at: time, state: state, scheduler: &scheduler)
        keys.start(at: time, state: state, scheduler: &scheduler)
        drums?.start(at: time, state: state, scheduler: &scheduler)
        melody?.start(at: time, state: state, scheduler: &scheduler)
        advance(through: time, scheduler: &scheduler)
    }

    /// Plays a hit: the first player whose hit it is plays it; a chord change it asks for is
    /// then followed by every player.
    public mutating func perform(_ hit: Hit, scheduler: inout Scheduler) {
        state.takeOver(dueBy: hit.time)
        if !bass.play(hit, state: &state, scheduler: &scheduler) {
            if keys.play(hit, state: &state, scheduler: &scheduler) {
                // The melody answers a key strike that sounded.
                if keys.sounded, melody != nil, case .key(let number, _) = hit.target {
                    melody!.answer(hit, key: number, state: state, scheduler: &scheduler)
                }
            } else {
                _ = drums?.play(hit, state: &state, scheduler: &scheduler)
            }
        }
        followChange(scheduler: &scheduler)
    }

    /// An ending's last bar line at `time` (not before the hits performed so far): chord I takes
    /// over there, whatever was waiting for the line, and its root sounds in the bass, loud.
    public mutating func end(at time: Double, scheduler: inout Scheduler) {
        state.takeOver(dueBy: time)
        bass.end(at: time, state: &state, scheduler: &scheduler)
        followChange(scheduler: &scheduler)
    }

    /// A live chord change (`Control.chord`): the chord of `degree` takes over at `time`, as a
    /// bass hit's change does (its chord event; under `smooth` voiced from the chord before;
    /// every player follows it), replacing a change still waiting for its beat or bar line. No
    /// note is added: the bass plays the root it next strikes.
    public mutating func changeChord(to degree: Int, at time: Double, scheduler: inout Scheduler) {
        if (state.pending?.degree ?? state.activeDegree) != degree { state.lead(to: degree) }
        state.pending = (degree, time)
        scheduler.changeHarmony(to: degree, at: time)
        state.change = (degree, time)
        followChange(scheduler: &scheduler)
        state.takeOver(dueBy: time)
    }

    /// Every player follows the chord change the last hit asked for, if any.
    private mutating func followChange(scheduler: inout Scheduler) {
        guard let change = state.change else { return }
        state.change = nil
        bass.follow(chordOf: change.degree, at: change.time, state: state, scheduler: &scheduler)
        keys.follow(chordOf: change.degree, at: change.time, state: state, scheduler: &scheduler)
        drums?.follow(chordOf: change.degree, at: change.time, state: state, scheduler: &scheduler)
    }

    /// The step ending at `time` is over: a waiting chord change due by then takes over, and the
    /// players play what the clock brings up to `time` (the stomp and metronome).
    public mutating func advance(through time: Double, scheduler: inout Scheduler) {
        state.takeOver(dueBy: time)
        bass.advance(through: time, state: state, scheduler: &scheduler)
        keys.advance(through: time, state: state, scheduler: &scheduler)
        drums?.advance(through: time, state: state, scheduler: &scheduler)
    }
}
