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
    public private(set) var previous: [Int] = []

    /// A leader for `register` (MIDI note numbers; precondition: `upperBound - lowerBound >= 11`, so
    /// every pitch class has a note in it).
    public init(register: ClosedRange<Int>) {
        precondition(register.upperBound - register.lowerBound >= 11, "a voice-leading register spans at least 12 notes")
        self.register = register
    }

    /// Voices `chord` from the previous chord and remembers it; pitches in chord-tone order.
    public mutating func voice(_ chord: Chord) -> [Pitch] {
        let notes = previous.isEmpty ? initial(chord) : VoiceLeader.smooth(from: previous, to: chord, register: register)
        previous = notes
        return notes.map { Pitch(midi: $0) }
    }

    /// Forgets the previous chord (the next is voiced close from the bottom of the register).
    public mutating func reset() { previous = [] }

    /// Close voicing: the root at its lowest note in the register, each tone stacked above it
    /// (intervals as given), folded down by octaves while above the register.
    public func initial(_ chord: Chord) -> [Int] {
        let root = Pitch(midi: register.lowerBound).nextUp(to: chord.root).midi
        return chord.intervals.map { interval in
            var note = root + interval
            while note > register.upperBound { note -= 12 }
            return note
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
        let tones = chord.tones
        let n = tones.count
        let m = previous.count
        guard m > 0 else { return VoiceLeader(register: register).initial(chord) }
        // cost[i][j]: tone i placed nearest voice j.
        var placed = [[Int]](repeating: [Int](repeating: 0, count: m), count: n)
        for i in 0..<n {
            for j in 0..<m { placed[i][j] = nearest(tones[i], to: previous[j], in: register) }
        }
        var best: [Int] = []
        var bestCost = Int.max
        var assignment = [Int](repeating: 0, count: n)
        var used = [Int](repeating: 0, count: m)
        func search(_ i: Int, _ cost: Int) {
            if cost >= bestCost { return }
            if i == n {
                // Fewer tones than voices: distinct voices. More: every voice used.
                if n >= m ? used.allSatisfy({ $0 > 0 }) : true {
                    bestCost = cost
                    best = (0..<n).map { placed[$0][assignment[$0]] }
                }
                return
            }
            for j in 0..<m where n > m || used[j] == 0 {
                assignment[i] = j
                used[j] += 1
                search(i + 1, cost + abs(placed[i][j] - previous[j]))
                used[j] -= 1
            }
        }
        search(0, 0)
        return best
    }

    /// Total semitones moved between two voicings of the same size matched voice for voice.
    public static func movement(from a: [Int], to b: [Int]) -> Int { zip(a, b).reduce(0) { $0 + abs($1.0 - $1.1) } }
}
