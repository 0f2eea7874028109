// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// Smooth voice leading: voices each new chord so that the voices move the least total distance
/// from the previous chord (common tones stay, other tones move by the smallest step), every note
/// inside a register.
///
/// Each chord tone is matched to one voice of the previous chord (all matchings are tried: at most
/// 6! for six voices) and placed at the octave of its pitch class in the register nearest that
/// voice. When the chord has more tones than the previous one, voices are shared; when it has fewer,
/// the voices left over simply stop. On a tie the first matching in chord-tone order wins, so the
/// result is deterministic. The first chord is voiced close from the bottom of the register.
public struct VoiceLeader: Sendable, Hashable {
    /// Lowest and highest MIDI note a voice may take; at least an octave wide (12 semitones).
    public let register: ClosedRange<Int>
    /// The last chord voiced (MIDI notes in chord-tone order), or empty before the first.
    public private(set) var previous: [Int]
    /// The search's buffers, kept from chord to chord so that voicing a chord of up to
    /// `VoiceLeaderSearch.reserved` tones allocates nothing (a real-time caller voices in its callback).
    private var search = VoiceLeaderSearch()

    /// A leader for `register` (MIDI note numbers; precondition: `upperBound - lowerBound >= 11`, so
    /// every pitch class has a note in it).
    public init(register: ClosedRange<Int>) {
        precondition(register.upperBound - register.lowerBound >= 11, "a voice-leading register spans at least 12 notes")
        self.register = register
        previous = []
        previous.reserveCapacity(VoiceLeaderSearch.reserved)
    }

    /// Voices `chord` from the previous chord and remembers it; pitches in chord-tone order.
    public mutating func voice(_ chord: Chord) -> [Pitch] {
        lead(to: chord)
        return previous.map { Pitch(midi: $0) }
    }

    /// Voices `chord` from the previous chord into `previous`, allocating nothing for chords of up
    /// to `VoiceLeaderSearch.reserved` tones (the same voicing as `voice(_:)`).
    public mutating func lead(to chord: Chord) {
        if previous.isEmpty {
            initial(chord, into: &previous)
        } else {
            search.run(from: previous, to: chord, register: register)
            previous.removeAll(keepingCapacity: true)
            previous.append(contentsOf: search.best)
        }
    }

    /// Takes `other`'s previous chord, in this leader's own buffers (`Array.overwrite(with:)`).
    public mutating func assign(from other: VoiceLeader) {
        precondition(register == other.register, "a voice leader takes the chords of one in its own register")
        previous.overwrite(with: other.previous)
    }

    /// Forgets the previous chord (the next is voiced close from the bottom of the register).
    public mutating func reset() { previous.removeAll(keepingCapacity: true) }

    /// Close voicing: the root at its lowest note in the register, each tone stacked above it
    /// (intervals as given), folded down by octaves while above the register.
    public func initial(_ chord: Chord) -> [Int] {
        var notes: [Int] = []
        initial(chord, into: &notes)
        return notes
    }

    /// `initial(_:)` written into `notes` (emptied first, its capacity kept).
    private func initial(_ chord: Chord, into notes: inout [Int]) {
        let root = Pitch(midi: register.lowerBound).nextUp(to: chord.root).midi
        notes.removeAll(keepingCapacity: true)
        for interval in chord.intervals {
            var note = root + interval
            while note > register.upperBound { note -= 12 }
            notes.append(note)
        }
    }

    /// The note of pitch class `pitchClass` in `register` nearest `target` (the lower one on a tie).
    public static func nearest(_ pitchClass: PitchClass, to target: Int, in register: ClosedRange<Int>) -> Int {
        let up = target + PitchClass(target).semitones(upTo: pitchClass)
        let down = up == target ? target : up - 12
        var best = up - target < target - down ? up : down
        while best < register.lowerBound { best += 12 }
        while best > register.upperBound { best -= 12 }
        return best
    }

    /// The voicing of `chord` with the least total movement from `previous` (MIDI notes), in chord-tone order.
    public static func smooth(from previous: [Int], to chord: Chord, register: ClosedRange<Int>) -> [Int] {
        guard !previous.isEmpty else { return VoiceLeader(register: register).initial(chord) }
        var search = VoiceLeaderSearch()
        search.run(from: previous, to: chord, register: register)
        return search.best
    }

    /// Total semitones moved between two voicings of the same size matched voice for voice.
    public static func movement(from a: [Int], to b: [Int]) -> Int { zip(a, b).reduce(0) { $0 + abs($1.0 - $1.1) } }

    /// Two leaders are equal when they voice alike: the same register and previous chord.
    public static func == (lhs: VoiceLeader, rhs: VoiceLeader) -> Bool {
        lhs.register == rhs.register && lhs.previous == rhs.previous
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(register)
        hasher.combine(previous)
    }
}

/// The branch-and-bound search of `VoiceLeader.smooth`: every matching of chord tones to the
/// previous voices, in chord-tone order, the first of least total movement kept. Its buffers
/// are reused from run to run (emptied, their capacity kept).
struct VoiceLeaderSearch: Sendable {
    /// Tones (and voices) the buffers hold without growing: a 13th chord has 7.
    static let reserved = 8
    /// The least-movement voicing of the last run, in chord-tone order.
    private(set) var best: [Int] = []
    private var voices: [Int] = []
    /// placed[i * m + j]: tone i placed nearest voice j.
    private var placed: [Int] = []
    private var assignment: [Int] = []
    private var used: [Int] = []
    private var bestCost = Int.max
    private var n = 0, m = 0

    init() {
        let r = VoiceLeaderSearch.reserved
        best.reserveCapacity(r)
        voices.reserveCapacity(r)
        placed.reserveCapacity(r * r)
        assignment.reserveCapacity(r)
        used.reserveCapacity(r)
    }

    /// Searches the voicing of `chord` from `previous` (not empty) into `best`.
    mutating func run(from previous: [Int], to chord: Chord, register: ClosedRange<Int>) {
        n = chord.intervals.count
        m = previous.count
        voices.removeAll(keepingCapacity: true)
        voices.append(contentsOf: previous)
        placed.removeAll(keepingCapacity: true)
        for interval in chord.intervals {
            let tone = chord.root.transposed(by: interval)
            for voice in previous { placed.append(VoiceLeader.nearest(tone, to: voice, in: register)) }
        }
        assignment.removeAll(keepingCapacity: true)
        assignment.append(contentsOf: repeatElement(0, count: n))
        used.removeAll(keepingCapacity: true)
        used.append(contentsOf: repeatElement(0, count: m))
        best.removeAll(keepingCapacity: true)
        bestCost = Int.max
        search(0, 0)
    }

    private mutating func search(_ i: Int, _ cost: Int) {
        if cost >= bestCost { return }
        if i == n {
            // Fewer tones than voices: distinct voices. More: every voice used.
            if n >= m ? !used.contains(0) : true {
                bestCost = cost
                best.removeAll(keepingCapacity: true)
                for tone in 0..<n { best.append(placed[tone * m + assignment[tone]]) }
            }
            return
        }
        for j in 0..<m where n > m || used[j] == 0 {
            assignment[i] = j
            used[j] += 1
            search(i + 1, cost + abs(placed[i * m + j] - voices[j]))
            used[j] -= 1
        }
    }
}
