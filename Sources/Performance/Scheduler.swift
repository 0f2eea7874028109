// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Theory
import Vocabulary
/// The time-ordered queue between the performer and the sinks.
///
/// The performer hands it note intents (a note, its velocity and when its hit happened); the
/// scheduler places each on the clock's grid (never before its hit), adds the meter's accents,
/// merges repeated strikes of one pitch on one grid line (the loudest stays), ends notes after
/// their voice's note length (and earlier when the same pitch is struck again), and at each step
/// hands out every event due, strictly in time order. Delivering out of order is a programming
/// error and stops the program (a precondition), never a clamp.
///
/// Allocation-free once warm: the queue and the sounding list keep their capacity.
public struct Scheduler: Sendable {
    /// The voices table.
    public let voices: VoiceTable
    /// The clock (tempo, meter, grid).
    public private(set) var clock: Clock
    /// Accents and velocity floor.
    public let feel: Feel

    /// At one time: note-offs, then chord tones ended, then the harmony's change, then note-ons.
    private enum EntryKind: Int, Sendable {
        case off = 0
        case endTones = 1
        case harmony = 2
        case on = 3
    }

    private struct Entry: Sendable {
        var time: Double
        var kind: EntryKind
        var sequence: Int
        /// The note (for `.harmony`, only its time and degree are read).
        var event: NoteEvent
        var token: Int
        /// For `.endTones`: the chord's pitch classes as a bit mask; for `.harmony`: 1 to deliver it
        /// even when its degree is the one playing (a key change).
        var extra: Int
    }

    private struct Sounding: Sendable {
        var voice: VoiceID
        var note: Int
        var token: Int
        var start: Double
    }

    private var queue: [Entry] = []        // sorted by (time, kind, sequence); delivered up to `head`
    /// Delivered entries are dropped from the queue's front once this many have gathered (or
    /// all are delivered), not after every delivery: each drop moves every entry left behind.
    private static let compactAfter = 64
    private var head = 0
    private var sounding: [Sounding] = []
    private let noteLengths: [Double]
    private let monophonic: [Bool]
    private var derived: [(voice: VoiceID, derivation: Voice.Derivation)]   // derived voices
    private var sequence = 0
    private var lastDelivered = -Double.infinity
    private var harmonyDegree = 0          // the degree of the last harmony change delivered
    /// The buffer a return merges the queue into (`resume`), then the old queue's.
    private var spare: [Entry] = []

    /// Creates an empty scheduler.
    public init(voices: VoiceTable, clock: Clock, feel: Feel) {
        self.voices = voices
        self.clock = clock
        self.feel = feel
        noteLengths = voices.voices.map(\.noteLength)
        monophonic = voices.voices.map(\.isMonophonic)
        derived = voices.ids.compactMap { id in voices[id].derived.map { (id, $0) } }
        queue.reserveCapacity(1024)
        spare.reserveCapacity(1024)
        sounding.reserveCapacity(256)
    }

    /// Notes sounding now.
    public var soundingCount: Int { sounding.count }
    /// Entries waiting (note-ons, note-offs, chord changes).
    public var queuedCount: Int { queue.count - head }

    /// A live tempo change at `time`: notes placed from now on follow the new tempo's grid,
    /// beats and bars, and the notes, chord tones and harmony changes queued for after `time`
    /// keep their place in the bar (a note queued for beat 3 sounds on beat 3 at the new tempo,
    /// not between two beats). Note lengths are seconds: the note-offs of sounding notes keep
    /// their times, and a queued note's own comes its length after it sounds.
    public mutating func changeTempo(to tempo: Double, at time: Double) {
        let stretch = clock.tempo / tempo
        clock.changeTempo(to: tempo, at: time)
        guard stretch != 1 else { return }
        var moved = false
        for index in head..<queue.count where queue[index].time > time && queue[index].kind != .off {
            queue[index].time = time + (queue[index].time - time) * stretch
            queue[index].event.time = queue[index].time
            moved = true
        }
        guard moved else { return }
        // Back in (time, kind, sequence) order among the note-offs that stayed: an insertion
        // sort, in place (a plugin changes tempo in its audio thread) and short on a queue that
        // is nearly in order.
        var index = head + 1
        while index < queue.count {
            let entry = queue[index]
            var place = index
            while place > head && Self.precedes(entry, queue[place - 1]) {
                queue[place] = queue[place - 1]
                place -= 1
            }
            queue[place] = entry
            index += 1
        }
    }

    private static func precedes(_ a: Entry, _ b: Entry) -> Bool {
        if a.time != b.time { return a.time < b.time }
        if a.kind != b.kind { return a.kind.rawValue < b.kind.rawValue }
        return a.sequence < b.sequence
    }

    /// When a note hit at `time` will sound.
    public func place(_ time: Double) -> Double { clock.place(time) }

    /// Queues a note: it sounds at `sounding` (from `place`, or a beat line), which is never
    /// before `note.hit`. `note.velocity` is the velocity before the floor and accents. `replacesVoice`: drop any other note of the voice
    /// queued for the same time (the bass, when a later hit asks for another chord on the same line).
    public mutating func schedule(_ note: NoteEvent, at sounding: Double, replacesVoice: Bool = false) {
        precondition(sounding >= note.hit, "a note may not sound before its hit")
        var event = note
        event.time = sounding
        event.kind = .on
        var velocity = feel.floored(feel.swelled(event.velocity, bar: (sounding + clock.shift) / clock.barSeconds))
        if clock.grid.isOn, let beat = clock.beatInBar(at: sounding) {
            if beat == 0 { velocity += feel.downbeatAccent } else if clock.meter.strongBeats.contains(beat) { velocity += feel.strongAccent }
        }
        event.velocity = min(127, max(1, velocity))
        if clock.grid.isOn || replacesVoice {
            // Strikes of one pitch landing on one grid line become one note, the loudest.
            var index = queue.count - 1
            while index >= head && queue[index].time >= sounding {
                let other = queue[index]
                if other.kind == .on && other.time == sounding && other.event.voice == event.voice {
                    if replacesVoice {
                        queue.remove(at: index)
                    } else if other.event.note == event.note {
                        if event.velocity > other.event.velocity { queue[index].event = event }
                        return
                    }
                }
                index -= 1
            }
        }
        insert(Entry(time: sounding, kind: .on, sequence: 0, event: event, token: 0, extra: -1))
    }

    /// At `time`, ends every sounding note of `voice` whose pitch class is not in `pitchClasses`
    /// (bit n = pitch class n). That voice's notes queued for `time` or later play the new chord:
    /// a note of chord tone t becomes `notes[t - 1]` (one already queued for the same time and
    /// pitch keeps the louder of the two).
    public mutating func changeChord(at time: Double, voice: VoiceID, pitchClasses: Int, degree: Int, notes: [Int]) {
        var index = queue.count - 1
        while index >= head && queue[index].time >= time {
            let entry = queue[index]
            if entry.kind == .on && entry.event.voice == voice, case .keyHit(_, let tone) = entry.event.cause, (1...notes.count).contains(tone) {
                let note = notes[tone - 1]
                // Another note of the voice on the same line already playing that pitch: keep the louder.
                var twin = index + 1
                while twin < queue.count && queue[twin].time == entry.time {
                    if queue[twin].kind == .on && queue[twin].event.voice == voice && queue[twin].event.note == note { break }
                    twin += 1
                }
                if twin < queue.count && queue[twin].time == entry.time {
                    if entry.event.velocity > queue[twin].event.velocity {
                        queue[twin].event.velocity = entry.event.velocity
                        queue[twin].event.ball = entry.event.ball
                        queue[twin].event.speed = entry.event.speed
                        queue[twin].event.hit = entry.event.hit
                    }
                    queue.remove(at: index)
                } else {
                    queue[index].event.note = note
                    queue[index].event.degree = degree
                }
            }
            index -= 1
        }
        insert(Entry(time: time, kind: .endTones, sequence: 0,
                     event: NoteEvent(time: time, kind: .off, voice: voice, note: 0, velocity: 0, degree: degree),
                     token: 0, extra: pitchClasses))
    }

    /// Queues the harmony's change to the chord of `degree` at `time` (when it takes over).
    /// A change queued earlier for the same time is replaced (a later hit asked for another
    /// chord on the same line). It is delivered (`ScheduledEvent.harmony`) only if its degree is not
    /// the one playing then, or always when `always` (a key change renames the chord playing).
    public mutating func changeHarmony(to degree: Int, at time: Double, always: Bool = false) {
        var index = queue.count - 1
        while index >= head && queue[index].time >= time {
            if queue[index].kind == .harmony && queue[index].time == time { queue.remove(at: index) }
            index -= 1
        }
        insert(Entry(time: time, kind: .harmony, sequence: 0,
                     event: NoteEvent(time: time, kind: .on, voice: .bass, note: 0, velocity: 0, degree: degree),
                     token: 0, extra: always ? 1 : 0))
    }

    // MARK: Live key change

    /// A live key change: each note-on of `voice` still queued (struck before, sounding later)
    /// takes the note `rewrite` gives it, in time order. `rewrite` gets the note and the next
    /// queued note-on of the voice that is not a leading note (nil when none; its note may
    /// already be rewritten, its degree and cause are as queued). Two notes of the voice that
    /// then share a grid line and a pitch become one, the louder (as when they are struck so).
    /// In place: nothing is allocated.
    public mutating func retune(voice: VoiceID, _ rewrite: (_ note: NoteEvent, _ next: NoteEvent?) -> Int) {
        var retuned = false
        for index in head..<queue.count where queue[index].kind == .on && queue[index].event.voice == voice {
            var next: NoteEvent?
            for later in (index + 1)..<max(index + 1, queue.count) where queue[later].kind == .on
                && queue[later].event.voice == voice && queue[later].event.cause != .leadingNote {
                next = queue[later].event
                break
            }
            queue[index].event.note = min(max(rewrite(queue[index].event, next), 0), 127)
            retuned = true
        }
        guard retuned else { return }
        var index = queue.count - 1
        while index >= head {
            let entry = queue[index]
            if entry.kind == .on && entry.event.voice == voice {
                var twin = index - 1
                while twin >= head && queue[twin].time == entry.time {
                    if queue[twin].kind == .on && queue[twin].event.voice == voice && queue[twin].event.note == entry.event.note { break }
                    twin -= 1
                }
                if twin >= head && queue[twin].time == entry.time {
                    if entry.event.velocity > queue[twin].event.velocity { queue[twin].event = entry.event }
                    queue.remove(at: index)
                }
            }
            index -= 1
        }
    }

    /// A live key change: chord changes of `voice` still queued end the notes outside
    /// `pitchClasses(degree)` (bit n = pitch class n) instead of the old key's chord tones.
    public mutating func retuneChordChanges(voice: VoiceID, pitchClasses: (Int) -> Int) {
        for index in head..<queue.count where queue[index].kind == .endTones && queue[index].event.voice == voice {
            queue[index].extra = pitchClasses(queue[index].event.degree)
        }
    }

    /// Ends at `time` the notes of `voice` sounding since before `time` whose pitch class is not
    /// in `pitchClasses` (a live key change, when the session ends non-chord tones at a change).
    public mutating func endSounding(at time: Double, voice: VoiceID, keeping pitchClasses: Int, degree: Int) {
        for note in sounding where note.voice == voice && note.start < time && pitchClasses & (1 << (note.note % 12)) == 0 {
            // Its own note-off, earlier: the one queued before finds it ended and is dropped.
            insert(Entry(time: time, kind: .off, sequence: 0,
                         event: NoteEvent(time: time, kind: .off, voice: voice, note: note.note, velocity: 0, degree: degree),
                         token: note.token, extra: -1))
        }
    }

    /// A live key change: `voice` (a derived voice) plays by `derivation` (its rule worked out
    /// in the new key) with the notes delivered from now on.
    public mutating func changeDerivation(of voice: VoiceID, to derivation: Voice.Derivation) {
        for index in derived.indices where derived[index].voice == voice {
            derived[index].derivation = derivation
        }
    }

    /// Form: plays again from `saved`, this scheduler as it was at an earlier bar line, `offset`
    /// seconds later (`now` = that bar line + `offset`). What `saved` had queued from hits at or
    /// after its line (and its harmony changes) sounds again, moved by `offset`; what was queued
    /// then from earlier hits, and its note-offs, belonged to another past and are dropped. Notes
    /// queued now from hits before `now` still sound, and notes sounding now end as they would
    /// have; harmony changes queued now give way to the saved ones. The clock goes on.
    public mutating func resume(_ saved: Scheduler, after offset: Double, now: Double) {
        let line = now - offset - 1e-9
        // Merged into the spare buffer, which then becomes the queue: nothing is allocated.
        var merged: [Entry] = []
        swap(&merged, &spare)
        merged.removeAll(keepingCapacity: true)
        var i = head, j = saved.head
        while i < queue.count && !Self.staysLive(queue[i], now: now) { i += 1 }
        while j < saved.queue.count && !Self.playsAgain(saved.queue[j], line: line) { j += 1 }
        while i < queue.count || j < saved.queue.count {
            let again = j < saved.queue.count ? Self.moved(saved.queue[j], by: offset, now: now) : nil
            if let again, i == queue.count || again.time < queue[i].time
                || (again.time == queue[i].time && again.kind.rawValue < queue[i].kind.rawValue) {
                merged.append(again)
                j += 1
                while j < saved.queue.count && !Self.playsAgain(saved.queue[j], line: line) { j += 1 }
            } else {
                merged.append(queue[i])
                i += 1
                while i < queue.count && !Self.staysLive(queue[i], now: now) { i += 1 }
            }
        }
        swap(&queue, &merged)
        spare = merged
        head = 0
        derived.overwrite(with: saved.derived)
        harmonyDegree = saved.harmonyDegree
    }

    /// At a return: a queued note-off, or a note-on of a hit before `now`, stays.
    private static func staysLive(_ entry: Entry, now: Double) -> Bool {
        entry.kind == .off || (entry.kind == .on && entry.event.hit < now - 1e-9)
    }

    /// At a return: a saved entry plays again unless it is a note-off or a note-on of a hit
    /// before the saved line.
    private static func playsAgain(_ entry: Entry, line: Double) -> Bool {
        entry.kind != .off && (entry.kind != .on || entry.event.hit >= line)
    }

    /// A saved entry `offset` seconds later, never before `now` by a rounding of the sum.
    private static func moved(_ entry: Entry, by offset: Double, now: Double) -> Entry {
        var entry = entry
        entry.time = max(entry.time + offset, now)
        entry.event.time = max(entry.event.time + offset, now)
        entry.event.hit += offset
        return entry
    }

    /// Becomes `other` (a form's save of this scheduler), keeping its own buffers: an
    /// assignment would share `other`'s, and the next note would copy them (an allocation in
    /// a real-time caller). `other` must be of the same session.
    public mutating func assign(from other: Scheduler) {
        clock = other.clock
        queue.overwrite(with: other.queue)
        head = other.head
        sounding.overwrite(with: other.sounding)
        derived.overwrite(with: other.derived)
        sequence = other.sequence
        lastDelivered = other.lastDelivered
        harmonyDegree = other.harmonyDegree
    }

    /// Hands out every event due at or before `time`, in time order.
    public mutating func deliver(through time: Double, into events: inout [ScheduledEvent]) {
        while head < queue.count && queue[head].time <= time {
            let entry = queue[head]
            head += 1
            emit(entry, into: &events)   // may queue a note-off, always after `head`
        }
        if head == queue.count {
            if head > 0 { queue.removeAll(keepingCapacity: true) }
            head = 0
        } else if head >= Self.compactAfter {
            queue.removeFirst(head)
            head = 0
        }
    }

    /// Ends the session at `time`: delivers what is due, forgets notes queued for later, and
    /// ends every sounding note at `time` (in the order their note-offs were due), or `ringing`
    /// seconds later: an ending lets its last notes ring.
    public mutating func finish(at time: Double, ringing: Double = 0, into events: inout [ScheduledEvent]) {
        deliver(through: time, into: &events)
        let time = time + ringing
        for entry in queue[head...] where entry.kind == .off {
            if let index = sounding.firstIndex(where: { $0.token == entry.token }) {
                sounding.remove(at: index)
                var off = entry.event
                off.time = time
                off.hit = time
                append(off, into: &events)
            }
        }
        queue.removeAll(keepingCapacity: true)
        head = 0
        for note in sounding {
            append(NoteEvent(time: time, kind: .off, voice: note.voice, note: note.note, velocity: 0, degree: 0), into: &events)
        }
        sounding.removeAll(keepingCapacity: true)
    }

    private mutating func insert(_ entry: Entry) {
        var entry = entry
        sequence += 1
        entry.sequence = sequence
        var index = queue.count
        while index > head {
            let other = queue[index - 1]
            if other.time < entry.time || (other.time == entry.time && other.kind.rawValue <= entry.kind.rawValue) { break }
            index -= 1
        }
        queue.insert(entry, at: index)
    }

    private mutating func append(_ event: NoteEvent, into events: inout [ScheduledEvent]) {
        append(.note(event), into: &events)
    }

    private mutating func append(_ event: ScheduledEvent, into events: inout [ScheduledEvent]) {
        precondition(event.time >= lastDelivered, "scheduler delivered an event at \(event.time) s after one at \(lastDelivered) s")
        lastDelivered = event.time
        events.append(event)
    }

    private mutating func emit(_ entry: Entry, into events: inout [ScheduledEvent]) {
        switch entry.kind {
        case .off:
            guard let index = sounding.firstIndex(where: { $0.token == entry.token }) else { return }
            sounding.remove(at: index)
            append(entry.event, into: &events)
        case .endTones:
            var index = 0
            while index < sounding.count {
                let note = sounding[index]
                if note.voice == entry.event.voice && entry.extra & (1 << (note.note % 12)) == 0 {
                    sounding.remove(at: index)
                    append(NoteEvent(time: entry.time, kind: .off, voice: note.voice, note: note.note, velocity: 0,
                                     degree: entry.event.degree), into: &events)
                } else {
                    index += 1
                }
            }
        case .harmony:
            guard entry.extra == 1 || entry.event.degree != harmonyDegree else { return }
            harmonyDegree = entry.event.degree
            append(.harmony(time: entry.time, degree: entry.event.degree), into: &events)
        case .on:
            sound(entry, into: &events)
            // Derived voices sound with the note they follow (their notes are never queued).
            for (voice, derivation) in derived where derivation.from == entry.event.voice {
                var double = entry
                double.event.voice = voice
                double.event.note = derivation.notes[min(max(entry.event.note, 0), 127)]
                double.event.cause = .derived(from: entry.event.voice, of: entry.event.note)
                double.extra = -1
                sound(double, into: &events)
            }
        }
    }

    /// Sounds a note-on entry: ends the same pitch of the voice if it rings and queues the
    /// note-off.
    private mutating func sound(_ entry: Entry, into events: inout [ScheduledEvent]) {
        let note = entry.event
        // A pitch struck again while sounding is ended first, never doubled; a monophonic
        // voice's new note ends whatever it has sounding.
        let isMonophonic = monophonic[note.voice.rawValue]
        var index = 0
        while index < sounding.count {
            let other = sounding[index]
            if other.voice == note.voice && (isMonophonic || other.note == note.note) {
                sounding.remove(at: index)
                append(NoteEvent(time: note.time, kind: .off, voice: note.voice, note: other.note, velocity: 0, degree: note.degree),
                       into: &events)
            } else {
                index += 1
            }
        }
        append(note, into: &events)
        sequence += 1
        let token = sequence
        sounding.append(Sounding(voice: note.voice, note: note.note, token: token, start: note.time))
        let off = NoteEvent(time: note.time + noteLengths[note.voice.rawValue], kind: .off, voice: note.voice, note: note.note,
                            velocity: 0, degree: note.degree)
        insert(Entry(time: off.time, kind: .off, sequence: 0, event: off, token: token, extra: -1))
    }
}
