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
        let n = max(1, voiced.count)
        return (0..<maximumTone).map { k in voiced.isEmpty ? 60 : voiced[k % n] + 12 * (k / n) }
    }
}

/// Turns hits into note intents for the scheduler: keeps the harmony (the active chord and a
/// chord change waiting for its beat or bar line), the keys' dribble gate, and the percussion.
///
/// Pure and deterministic: no clock reading, no randomness, no I/O. Hits must arrive in time
/// order, with `advance(through:)` after each step's hits.
public struct Performer: Sendable {
    /// The configuration in use (its key and chords change with a live key change).
    public private(set) var configuration: PerformerConfiguration
    /// Scale degree (1…7) of the active chord; the session starts on 1.
    public private(set) var activeDegree = 1
    /// The chord of each degree's bouncer (index 0 = degree 1), in the current key.
    public private(set) var chords: [Chord] = []
    private let voices: VoiceTable
    private let curves: [VelocityCurve]   // per voice
    private var bassNotes: [Int] = []     // per degree
    private var names: (numerals: [String], symbols: [String]) = ([], [])   // per degree, in the key
    private var keysNotes: [[Int]] = []   // per degree, per chord tone (rewritten at each chord change under `smooth`)
    private var leader: VoiceLeader?      // `smooth` voicing only
    private var chordMasks: [Int] = []    // per degree: pitch classes of the keys' notes
    private let percussionVoice: VoiceID?
    private var pending: (degree: Int, time: Double)?
    private var lastKeyHit: [Double]      // per ball
    private var nextBeat = 0
    private var scaleNotes: [Int] = []    // `melodic`: the scale's notes in the keys' two octaves, ascending
    private var pointer = 0               // `melodic`: index into scaleNotes of the last melody note

    /// Everything the performer derives from the key and the chords.
    private struct Harmony {
        var chords: [Chord] = []
        var names: (numerals: [String], symbols: [String]) = ([], [])
        var bassNotes: [Int] = []
        var keysNotes: [[Int]] = []
        var chordMasks: [Int] = []
        var scaleNotes: [Int] = []

        init(_ configuration: PerformerConfiguration) {
            for degree in 1...7 {
                let chord = configuration.chords[degree - 1]
                chords.append(chord)
                bassNotes.append(configuration.bassNote(degree: degree))
                keysNotes.append(PerformerConfiguration.keyNotes(voiced: configuration.voicing.pitches(of: chord, base: configuration.keysBase).map(\.midi)))
            }
            chordMasks = chords.map { chord in chord.tones.reduce(0) { $0 | 1 << $1.value } }
            let key = configuration.key
            names = ChordNames.of(chords, in: key)
            scaleNotes = Performer.smoothRegister(base: configuration.keysBase).filter { key.contains(PitchClass($0)) }
        }
    }

    /// Creates a performer for a session with these voices; nothing sounds until `start`.
    public init(configuration: PerformerConfiguration, voices: VoiceTable) {
        self.configuration = configuration
        self.voices = voices
        curves = voices.voices.map(\.curve)
        percussionVoice = voices.id(of: .percussion)
        lastKeyHit = Array(repeating: -.infinity, count: configuration.pianoBalls + 1)
        adopt(Harmony(configuration))
        if configuration.voicing == .smooth {
            leader = VoiceLeader(register: Performer.smoothRegister(base: configuration.keysBase))
        }
        pointer = Performer.melodyStart(scaleNotes, tonic: configuration.key.tonic)
    }

    /// Takes the chords, roots, keys' notes and scale of `harmony`.
    private mutating func adopt(_ harmony: Harmony) {
        chords = harmony.chords
        names = harmony.names
        bassNotes = harmony.bassNotes
        keysNotes = harmony.keysNotes
        chordMasks = harmony.chordMasks
        scaleNotes = harmony.scaleNotes
    }

    /// A live key change at `time` (the start of a step). `configuration` is the session's in
    /// the new key (`SessionPlan.keyChange(to:)`): its chords, bass roots, keys' notes and scale
    /// are played from `time` on.
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
        let lastMelodyNote = scaleNotes.isEmpty ? nil : scaleNotes[pointer]
        self.configuration = configuration
        adopt(Harmony(configuration))
        // The chord playing is renamed in the new key from now on (a change still waiting is
        // named when it takes over).
        scheduler.changeHarmony(to: activeDegree, at: time, always: true)
        if leader != nil {
            lead(to: activeDegree)
            if let pending, pending.degree != activeDegree { lead(to: pending.degree) }
        }
        pointer = lastMelodyNote.map { Performer.nearest(to: $0, in: scaleNotes) }
            ?? Performer.melodyStart(scaleNotes, tonic: configuration.key.tonic)

        let keys = keysNotes, scale = scaleNotes, bass = bassNotes
        let key = configuration.key, approach = configuration.approach
        scheduler.retune(voice: .keys) { queued in
            queued.map { note in
                if (1...PerformerConfiguration.maximumTone).contains(note.tone), (1...7).contains(note.degree) {
                    return keys[note.degree - 1][note.tone - 1]
                }
                return scale.isEmpty ? note.note : scale[Performer.nearest(to: note.note, in: scale)]
            }
        }
        scheduler.retune(voice: .bass) { queued in
            queued.indices.map { index in
                let note = queued[index]
                if note.tone == NoteEvent.leadingTone {
                    // The approach to the root it leads to: the next bass note queued.
                    guard let root = queued[(index + 1)...].first(where: { $0.tone != NoteEvent.leadingTone }),
                          (1...7).contains(root.degree) else { return note.note }
                    return approach.note(to: bass[root.degree - 1], in: key)
                }
                return (1...7).contains(note.degree) ? bass[note.degree - 1] : note.note
            }
        }
        if configuration.endsNonChordTones {
            let masks = chordMasks
            scheduler.retuneChordChanges(voice: .keys) { degree in (1...7).contains(degree) ? masks[degree - 1] : 0xFFF }
            scheduler.endSounding(at: time, voice: .keys, keeping: chordMasks[activeDegree - 1], degree: activeDegree)
        }
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

    /// Moves the melody by `step` scale steps (turning back at the register's edge) and returns
    /// its note; on a strong beat the pointer then goes to the nearest tone of the chord (whose
    /// pitch classes are `mask`), looking first the way the step went.
    private mutating func melodyNote(step: Int, strong: Bool, mask: Int) -> Int {
        guard !scaleNotes.isEmpty else { return configuration.keysBase.midi }
        let count = scaleNotes.count
        var target = pointer + step
        if target < 0 || target >= count { target = pointer - step }
        target = min(max(target, 0), count - 1)
        if strong && mask & (1 << PitchClass(scaleNotes[target]).value) == 0 {
            let direction = step < 0 ? -1 : 1
            search: for distance in 1..<count {
                for side in 0..<2 {
                    let candidate = target + (side == 0 ? direction : -direction) * distance
                    if candidate >= 0 && candidate < count && mask & (1 << PitchClass(scaleNotes[candidate]).value) != 0 {
                        target = candidate
                        break search
                    }
                }
            }
        }
        pointer = target
        return scaleNotes[target]
    }

    /// The active chord.
    public var activeChord: Chord { chords[activeDegree - 1] }

    /// The chord event of degree 1…7's chord taking over at `time`, named in the current key.
    public func chordEvent(degree: Int, at time: Double) -> ChordEvent {
        ChordEvent(time: time, degree: degree, chord: chords[degree - 1], key: configuration.key,
                   name: names.symbols[degree - 1], numeral: names.numerals[degree - 1])
    }

    /// Under `smooth` voicing, voices the chord of `degree` from the keys' last chord.
    private mutating func lead(to degree: Int) {
        guard var leader else { return }
        keysNotes[degree - 1] = PerformerConfiguration.keyNotes(voiced: leader.voice(chords[degree - 1]).map(\.midi))
        self.leader = leader
    }

    /// The bass note (MIDI) of a degree 1…7.
    public func bassNote(degree: Int) -> Int { bassNotes[degree - 1] }

    /// The keys note (MIDI) of chord tone 1…5 of degree 1…7's chord.
    public func keysNote(degree: Int, tone: Int) -> Int { keysNotes[degree - 1][tone - 1] }

    /// Form: plays again as `saved` (this performer at an earlier bar line), `offset` seconds
    /// later: its harmony, voicing and melody, its waiting chord change and dribble times moved
    /// by `offset`; the beat count of the stomp and metronome goes on.
    public mutating func resume(_ saved: Performer, after offset: Double) {
        let beat = nextBeat
        self = saved
        nextBeat = beat
        if let change = pending { pending = (change.degree, change.time + offset) }
        for index in lastKeyHit.indices { lastKeyHit[index] += offset }
    }

    /// Opens the session at `time`: chord I becomes active and its root sounds in the bass, loud.
    public mutating func start(at time: Double, scheduler: inout Scheduler) {
        activeDegree = 1
        pending = nil
        leader?.reset()
        lead(to: 1)
        pointer = Performer.melodyStart(scaleNotes, tonic: configuration.key.tonic)
        let bass = voices[.bass]
        scheduler.changeHarmony(to: 1, at: time)
        scheduler.schedule(NoteEvent(time: time, kind: .on, voice: .bass, note: bassNotes[0],
                                     velocity: bass.curve.velocity(forSpeed: bass.curve.loudSpeed), ball: 0, speed: 0, degree: 1),
                           at: time)
        advance(through: time, scheduler: &scheduler)
    }

    /// Plays a hit.
    public mutating func perform(_ hit: Hit, scheduler: inout Scheduler) {
        if let change = pending, hit.time >= change.time { activeDegree = change.degree; pending = nil }
        switch hit.target {
        case .degree(let degree):
            guard hit.speed >= configuration.bassMinimumSpeed, (1...7).contains(degree) else { return }
            let previous = pending?.degree ?? activeDegree
            // Under `smooth`, the new chord is voiced from the one it follows (the waiting one, if any).
            if degree != (pending?.degree ?? activeDegree) { lead(to: degree) }
            let velocity = curves[VoiceID.bass.rawValue].velocity(forSpeed: hit.speed)
            let change: Double
            switch configuration.chordChange {
            case .hit: change = hit.time
            case .beat: change = scheduler.clock.nextBeat(atOrAfter: hit.time)
            case .bar: change = scheduler.clock.nextBar(atOrAfter: hit.time)
            }
            let sounding: Double
            if configuration.chordChange == .hit {
                activeDegree = degree
                sounding = scheduler.place(hit.time)
            } else {
                pending = (degree, change)
                sounding = change
            }
            // The chord takes over when its root sounds (a later hit for the same line replaces it).
            scheduler.changeHarmony(to: degree, at: sounding)
            if configuration.approach != .off && degree != previous && scheduler.clock.grid.isOn {
                approach(degree, sounding: sounding, hit: hit, velocity: velocity, scheduler: &scheduler)
            }
            scheduler.schedule(NoteEvent(time: sounding, kind: .on, voice: .bass, note: bassNotes[degree - 1], velocity: velocity,
                                         ball: hit.ball, speed: hit.speed, degree: degree, hit: hit.time),
                               at: sounding, replacesVoice: configuration.chordChange != .hit)
            if configuration.endsNonChordTones || configuration.chordChange != .hit {
                // Key notes already queued for the change or later play the new chord; with
                // `endsNonChordTones`, ringing ones that do not fit it end there.
                scheduler.changeChord(at: change, voice: .keys,
                                      pitchClasses: configuration.endsNonChordTones ? chordMasks[degree - 1] : 0xFFF,
                                      degree: degree, notes: keysNotes[degree - 1])
            }
        case .key(let number, let tone):
            guard hit.speed >= configuration.keysMinimumSpeed, (1...PerformerConfiguration.maximumTone).contains(tone) else { return }
            let velocity = curves[VoiceID.keys.rawValue].velocity(forSpeed: hit.speed)
            if let gate = configuration.dribble, hit.ball < lastKeyHit.count {
                let isDribble = hit.time - lastKeyHit[hit.ball] < gate.window && velocity < gate.velocity
                lastKeyHit[hit.ball] = hit.time
                if isDribble { return }
            }
            let sounding = scheduler.place(hit.time)
            var degree = activeDegree
            if let change = pending, sounding >= change.time { degree = change.degree }
            var note = keysNotes[degree - 1][tone - 1]
            var played = tone
            if let steps = configuration.melodicSteps {
                // Strong: on the bar line or a strong beat of the meter (quantised notes land there).
                let beat = scheduler.clock.grid.isOn ? scheduler.clock.beatInBar(at: sounding) : nil
                let strong = beat.map { $0 == 0 || scheduler.clock.meter.strongBeats.contains($0) } ?? false
                note = melodyNote(step: steps[min(max(number, 1), steps.count) - 1], strong: strong, mask: chordMasks[degree - 1])
                played = 0   // a melody note: not a chord tone the scheduler re-voices at a change
            }
            scheduler.schedule(NoteEvent(time: sounding, kind: .on, voice: .keys, note: note,
                                         velocity: velocity, ball: hit.ball, speed: hit.speed, degree: degree,
                                         key: number, tone: played, hit: hit.time),
                               at: sounding)
        case .wall, .floor:
            guard let voice = percussionVoice else { return }
            let isBass = hit.ball == 0
            let drum: Drum?
            if isBass { drum = configuration.percussion.bassWalls } else if case .wall = hit.target { drum = configuration.percussion.walls } else { drum = configuration.percussion.floor }
            guard let drum, isBass || hit.speed >= configuration.keysMinimumSpeed else { return }
            let curve = curves[isBass ? VoiceID.bass.rawValue : voice.rawValue]
            let sounding = scheduler.place(hit.time)
            scheduler.schedule(NoteEvent(time: sounding, kind: .on, voice: voice, note: drum.note, velocity: curve.velocity(forSpeed: hit.speed),
                                         ball: hit.ball, speed: hit.speed, degree: degreeAt(sounding), hit: hit.time,
                                         drum: hit.target == .floor ? 2 : 1),
                               at: sounding)
        }
    }

    /// A leading note one grid line before the new root of `degree` (sounding at `sounding`),
    /// when that line is not before the hit. It replaces the approach of a change this hit
    /// overrides (same line); it is left out where a root could sound (a beat line for beat
    /// changes, a bar line for bar changes).
    private func approach(_ degree: Int, sounding: Double, hit: Hit, velocity: Int, scheduler: inout Scheduler) {
        let before = scheduler.place(sounding - scheduler.clock.stepSeconds)
        let line = scheduler.clock.beatInBar(at: before)
        let rootsLine = configuration.chordChange == .beat ? line != nil : line == 0
        guard before < sounding && before >= hit.time && !rootsLine else { return }
        let note = configuration.approach.note(to: bassNotes[degree - 1], in: configuration.key)
        scheduler.schedule(NoteEvent(time: before, kind: .on, voice: .bass, note: min(max(note, 0), 127), velocity: velocity,
                                     ball: hit.ball, speed: hit.speed, degree: degreeAt(before),
                                     tone: NoteEvent.leadingTone, hit: hit.time),
                           at: before, replacesVoice: true)
    }

    /// The step ending at `time` is over: a waiting chord change due by then takes over, and the
    /// stomp and metronome play their beats up to `time`.
    public mutating func advance(through time: Double, scheduler: inout Scheduler) {
        if let change = pending, time >= change.time { activeDegree = change.degree; pending = nil }
        guard let voice = percussionVoice else { return }
        let plan = configuration.percussion
        guard plan.metronome || !plan.stompBeats.isEmpty else { return }
        let clock = scheduler.clock
        while clock.beatTime(nextBeat) <= time {
            let at = clock.beatTime(nextBeat)
            let beat = nextBeat % clock.meter.beats
            nextBeat += 1
            if plan.stompBeats.contains(beat + 1) {
                scheduler.schedule(NoteEvent(time: at, kind: .on, voice: voice, note: plan.stomp.note, velocity: plan.stompVelocity,
                                             degree: degreeAt(at), drum: 3), at: at)
            }
            if plan.metronome {
                scheduler.schedule(NoteEvent(time: at, kind: .on, voice: voice, note: beat == 0 ? 76 : 77, velocity: beat == 0 ? 100 : 80,
                                             degree: degreeAt(at), drum: 4), at: at)
            }
        }
    }

    private func degreeAt(_ time: Double) -> Int {
        if let change = pending, time >= change.time { return change.degree }
        return activeDegree
    }
}
