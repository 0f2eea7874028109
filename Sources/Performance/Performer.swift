import Theory

/// Everything the performer needs to turn hits into notes.
public struct PerformerConfiguration: Sendable, Hashable {
    /// Key and scale of the session.
    public var key: Key
    /// Lowest pitch of the bass register: degree roots are folded into [bassBase, bassBase + 12).
    public var bassBase: Pitch
    /// Base pitch of the keys' voicing (for `folded`, the octave the root, 3rd and 5th fold into).
    public var keysBase: Pitch
    /// How the active chord's tones are placed in the keys register.
    public var voicing: Voicing
    /// Bass velocity from impact speed (m/s).
    public var bassCurve: VelocityCurve
    /// Keys velocity from impact speed (m/s).
    public var keysCurve: VelocityCurve
    /// Bass note length, seconds (> 0).
    public var bassNoteLength: Double
    /// Keys note length, seconds (> 0).
    public var keysNoteLength: Double
    /// Bass hits slower than this along the normal are ignored, m/s.
    public var bassMinimumSpeed: Double
    /// Key hits slower than this along the normal are ignored (resting contacts), m/s.
    public var keysMinimumSpeed: Double

    /// Creates a configuration.
    public init(key: Key, bassBase: Pitch, keysBase: Pitch, voicing: Voicing,
                bassCurve: VelocityCurve, keysCurve: VelocityCurve,
                bassNoteLength: Double, keysNoteLength: Double,
                bassMinimumSpeed: Double, keysMinimumSpeed: Double) {
        self.key = key
        self.bassBase = bassBase
        self.keysBase = keysBase
        self.voicing = voicing
        self.bassCurve = bassCurve
        self.keysCurve = keysCurve
        self.bassNoteLength = bassNoteLength
        self.keysNoteLength = keysNoteLength
        self.bassMinimumSpeed = bassMinimumSpeed
        self.keysMinimumSpeed = keysMinimumSpeed
    }
}

/// Turns hits into note events: keeps the harmony (the active chord) and every sounding note.
///
/// Pure and deterministic: no clock, no randomness, no I/O. Events come out in time order
/// provided hits and `release(through:)` calls arrive in time order.
public struct Performer: Sendable {
    /// The configuration in use.
    public let configuration: PerformerConfiguration
    /// Scale degree (1…7) of the active chord; the session starts on 1.
    public private(set) var activeDegree = 1
    /// Notes sounding now, as (voice, note) → scheduled note-off time in seconds.
    public var soundingCount: Int { pending.count }

    /// The diatonic seventh chord on each degree (index 0 = degree 1).
    public let chords: [Chord]
    private let bassNotes: [Int]          // per degree
    private var keysNotes: [[Int]]        // per degree, per chord tone (rewritten at each chord change under `smooth`)
    private var leader: VoiceLeader?      // `smooth` voicing only
    private var pending: [Pending] = []   // sorted by (time, sequence)
    private var sequence = 0

    private struct Pending: Sendable {
        var time: Double
        var sequence: Int
        var voice: Voice
        var note: Int
        var degree: Int
    }

    /// Creates a performer; nothing sounds until `start(at:)`.
    public init(configuration: PerformerConfiguration) {
        self.configuration = configuration
        let key = configuration.key
        var chords: [Chord] = []
        var bass: [Int] = []
        var keys: [[Int]] = []
        for degree in ScaleDegree.all {
            let chord = key.seventhChord(on: degree)
            chords.append(chord)
            bass.append(key.bassPitch(of: degree, base: configuration.bassBase).midi)
            keys.append(configuration.voicing.pitches(of: chord, base: configuration.keysBase).map(\.midi))
        }
        self.chords = chords
        self.bassNotes = bass
        self.keysNotes = keys
        if configuration.voicing == .smooth {
            leader = VoiceLeader(register: Performer.smoothRegister(base: configuration.keysBase))
        }
        pending.reserveCapacity(256)
    }

    /// The keys' register under `smooth` voicing: two octaves from the keys' base (MIDI notes).
    public static func smoothRegister(base: Pitch) -> ClosedRange<Int> { base.midi...(base.midi + 23) }

    /// The active chord.
    public var activeChord: Chord { chords[activeDegree - 1] }

    /// Under `smooth` voicing, voices the chord of `degree` from the keys' last chord.
    private mutating func lead(to degree: Int) {
        guard var leader else { return }
        keysNotes[degree - 1] = leader.voice(chords[degree - 1]).map(\.midi)
        self.leader = leader
    }

    /// The bass note (MIDI) of a degree 1…7.
    public func bassNote(degree: Int) -> Int { bassNotes[degree - 1] }

    /// The keys note (MIDI) of chord tone 1…4 of degree 1…7's chord.
    public func keysNote(degree: Int, tone: Int) -> Int { keysNotes[degree - 1][tone - 1] }

    /// Opens the session: chord I becomes active and its root sounds in the bass.
    public mutating func start(at time: Double, into events: inout [NoteEvent]) {
        activeDegree = 1
        leader?.reset()
        lead(to: 1)
        strike(time: time, voice: .bass, note: bassNotes[0], velocity: configuration.bassCurve.velocity(forSpeed: configuration.bassCurve.loudSpeed),
               ball: 0, speed: 0, key: 0, tone: 0, into: &events)
    }

    /// Plays a hit: note-offs due before it first, then (if fast enough) the note.
    public mutating func perform(_ hit: Hit, into events: inout [NoteEvent]) {
        release(through: hit.time, into: &events)
        switch hit.target {
        case .degree(let degree):
            guard hit.speed >= configuration.bassMinimumSpeed, (1...7).contains(degree) else { return }
            if degree != activeDegree { lead(to: degree) }
            activeDegree = degree
            strike(time: hit.time, voice: .bass, note: bassNotes[degree - 1],
                   velocity: configuration.bassCurve.velocity(forSpeed: hit.speed),
                   ball: hit.ball, speed: hit.speed, key: 0, tone: 0, into: &events)
        case .key(let number, let tone):
            guard hit.speed >= configuration.keysMinimumSpeed, (1...4).contains(tone) else { return }
            strike(time: hit.time, voice: .keys, note: keysNotes[activeDegree - 1][tone - 1],
                   velocity: configuration.keysCurve.velocity(forSpeed: hit.speed),
                   ball: hit.ball, speed: hit.speed, key: number, tone: tone, into: &events)
        }
    }

    /// Emits the note-offs due at or before `time`, each at its own time, in order.
    public mutating func release(through time: Double, into events: inout [NoteEvent]) {
        var count = 0
        while count < pending.count && pending[count].time <= time { count += 1 }
        guard count > 0 else { return }
        for item in pending[0..<count] {
            events.append(NoteEvent(time: item.time, kind: .off, voice: item.voice, note: item.note, velocity: 0, degree: item.degree))
        }
        pending.removeFirst(count)
    }

    /// Ends every sounding note at `time` (the end of a session or an interruption).
    public mutating func releaseAll(at time: Double, into events: inout [NoteEvent]) {
        for item in pending {
            events.append(NoteEvent(time: min(item.time, time), kind: .off, voice: item.voice, note: item.note, velocity: 0, degree: item.degree))
        }
        pending.removeAll(keepingCapacity: true)
    }

    private mutating func strike(time: Double, voice: Voice, note: Int, velocity: Int, ball: Int, speed: Double,
                                 key: Int, tone: Int, into events: inout [NoteEvent]) {
        // A pitch struck again while sounding is ended first, never doubled.
        if let index = pending.firstIndex(where: { $0.voice == voice && $0.note == note }) {
            let old = pending.remove(at: index)
            events.append(NoteEvent(time: time, kind: .off, voice: voice, note: note, velocity: 0, degree: old.degree))
        }
        events.append(NoteEvent(time: time, kind: .on, voice: voice, note: note, velocity: velocity,
                                ball: ball, speed: speed, degree: activeDegree, key: key, tone: tone))
        let length = voice == .bass ? configuration.bassNoteLength : configuration.keysNoteLength
        sequence += 1
        let item = Pending(time: time + length, sequence: sequence, voice: voice, note: note, degree: activeDegree)
        // Insert keeping (time, sequence) order; later sequences go after equal times.
        var index = pending.count
        while index > 0 && pending[index - 1].time > item.time { index -= 1 }
        pending.insert(item, at: index)
    }
}
