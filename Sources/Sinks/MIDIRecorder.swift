// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Errors
import MIDIFile
import Performance
import Text
import Theory

/// Records a session to a format 1 Standard MIDI File, streaming (flat memory).
///
/// Track 0: the session's tempo, time and key signature (FF 59: see `Key.midiKeySignature`),
/// and a text event naming the program, preset, seed, gravity, speed and key (with a live tempo
/// change a tempo event, with a live key change a key signature and a text event `key <tonic>
/// <mode>`), and a marker (FF 06) named after each chord the session plays ("Ebmaj7": the
/// chord event's symbol in ASCII, as SMF text is by convention) at the time it takes over: what
/// a DAW shows in its marker lane, and what `clumsy roll` and `clumsy analyze` read back. Then one track per row of the voices table, named after
/// the voice, on the voice's channels (a voice spread by position has one per pan zone, see
/// `MixPlan`), each channel opening with bank select (melodic banks only), program change,
/// CC7 level, CC10 pan, CC8 balance and the effect controllers (CC91 reverb send, CC74/CC71
/// filter) — what the sound uses. A stem file (`only:` a voice) holds track 0 and that
/// voice's track. Events must arrive in time order: a tick earlier than the track's last is
/// a programming error.
public final class MIDIRecorder: SessionSink {
    /// Ticks per quarter note.
    public static let ticksPerQuarter: UInt16 = 960

    private let writer: MIDIFileWriter
    private var ticksPerSecond: Double
    // A live tempo change rebases the conversion: tick = baseTick + (t − baseTime) × ticksPerSecond.
    private var baseTick: UInt64 = 0
    private var baseTime = 0.0
    private var lastTick: [UInt64]
    private var router: NoteRouter
    /// The voice of a stem file, nil for the whole session.
    private let voice: VoiceID?

    /// Opens `path` (created as a temporary now, so a bad path fails before the session runs);
    /// with `voice`, records only that voice (a stem).
    public init(path: String, plan: SessionPlan, only voice: VoiceID? = nil) throws(SessionError) {
        let mix = MixPlan(plan)
        router = NoteRouter(voices: plan.voices)
        self.voice = voice
        let trackCount = voice == nil ? plan.voices.count + 1 : 2
        do {
            writer = try MIDIFileWriter(path: path, trackCount: trackCount, ticksPerQuarter: Self.ticksPerQuarter)
        } catch {
            throw .cannotCreate("cannot write MIDI file: \(error)")
        }
        lastTick = Array(repeating: 0, count: trackCount)
        let clock = plan.clock
        ticksPerSecond = clock.tempo / 60 * Double(Self.ticksPerQuarter)
        let text = "\(Clumsy.name) \(Clumsy.version); preset \(Quote.ascii(plan.name)); seed \(plan.seed); "
            + "gravity \(Format.plain(plan.gravity)) m/s^2; speed \(Format.plain(plan.speed)) m/s; key \(plan.key.name(.ascii))"
        let unitPower: UInt8 = clock.meter.unit == 8 ? 3 : 2
        // MIDI clocks per metronome click: a quarter is 24; in x/8 the click is a dotted quarter when the bar divides in threes.
        let click: UInt8 = clock.meter.unit == 8 ? (clock.meter.beats % 3 == 0 ? 36 : 12) : 24
        try append(.tempo(microsecondsPerQuarter: UInt32((60_000_000 / clock.tempo).rounded())), track: 0, tick: 0)
        try append(.timeSignature(numerator: UInt8(clock.meter.beats), denominatorPowerOfTwo: unitPower, clocksPerClick: click, thirtySecondsPerQuarter: 8), track: 0, tick: 0)
        try append(Self.keySignature(plan.key), track: 0, tick: 0)
        try append(.text(text), track: 0, tick: 0)
        for (index, recorded) in plan.voices.voices.enumerated() where voice == nil || voice?.rawValue == index {
            let track = self.track(of: VoiceID(rawValue: index))
            try append(.trackName(recorded.name), track: track, tick: 0)
            for part in mix.parts[index].channels {
                let channel = UInt8(part.channel)
                if part.bank < 128 {
                    try append(.controlChange(channel: channel, controller: 0, value: UInt8(part.bank)), track: track, tick: 0)
                }
                try append(.programChange(channel: channel, program: UInt8(part.program)), track: track, tick: 0)
                for controller in part.placement {
                    try append(.controlChange(channel: channel, controller: UInt8(controller.number), value: UInt8(controller.value)),
                               track: track, tick: 0)
                }
                for (controller, value) in plan.sound.controllers {
                    try append(.controlChange(channel: channel, controller: controller, value: value), track: track, tick: 0)
                }
            }
        }
    }

    /// The key signature meta event of `key`.
    static func keySignature(_ key: Key) -> MIDIMessage {
        let signature = key.midiKeySignature
        return .keySignature(sharps: Int8(signature.sharps), minor: signature.minor)
    }

    /// A chord event's marker text: its symbol in ASCII ("Bbmaj7", "Bm7b5", "C(0,1,7)").
    static func markerName(_ chord: ChordEvent) -> String { chord.key.symbol(of: chord.chord, style: .ascii) }

    /// The track of a voice: its row + 1 in the session's file, 1 in a stem file.
    private func track(of recorded: VoiceID) -> Int { voice == nil ? recorded.rawValue + 1 : 1 }

    private func append(_ message: MIDIMessage, track: Int, tick: UInt64) throws(SessionError) {
        precondition(tick >= lastTick[track], "MIDI event at tick \(tick) after tick \(lastTick[track]) on track \(track): events out of time order")
        lastTick[track] = tick
        do {
            try writer.append(MIDIEvent(tick: tick, message: message), track: track)
        } catch {
            throw .io("cannot write MIDI file: \(error)")
        }
    }

    /// The tick of a time in seconds.
    func tick(_ time: Double) -> UInt64 { baseTick + UInt64(max(0, (time - baseTime) * ticksPerSecond).rounded()) }

    public func record(_ events: [SessionEvent], through time: Double) throws(SessionError) {
        for event in events {
            switch event {
            case .note, .control:
                try router.forEachMessage(of: event, only: voice) { (time, owner, message) throws(SessionError) in
                    guard let message = MIDIMessage(message) else { return }
                    try append(message, track: track(of: owner), tick: tick(time))
                }
            case .live(let at, _, .tempo(let bpm)):
                // Seconds stay where they were; the bars follow the new tempo from here on.
                baseTick = tick(at)
                baseTime = at
                ticksPerSecond = bpm / 60 * Double(Self.ticksPerQuarter)
                try append(.tempo(microsecondsPerQuarter: UInt32((60_000_000 / bpm).rounded())), track: 0, tick: baseTick)
            case .chord(let chord):
                try append(.marker(Self.markerName(chord)), track: 0, tick: max(tick(chord.time), lastTick[0]))
            case .live(let at, _, .key(let key)):
                // Its key signature, and a text event naming the new key as the opening text
                // names the first (`clumsy roll` reads both).
                try append(Self.keySignature(key), track: 0, tick: max(tick(at), lastTick[0]))
                try append(.text("key \(key.name(.ascii))"), track: 0, tick: max(tick(at), lastTick[0]))
            default:
                continue
            }
        }
    }

    public func finish(at time: Double) throws(SessionError) {
        do {
            try writer.finish()
        } catch {
            throw .io("cannot write MIDI file: \(error)")
        }
    }

    public func abandon() { writer.abandon() }
}
