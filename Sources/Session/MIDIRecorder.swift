import MIDIFile
import Performance

/// Records a session to a format 1 Standard MIDI File, streaming (flat memory).
///
/// Track 0: the session's tempo and time signature, and a text event naming the program,
/// preset, seed, gravity and speed. Then one track per row of the voices table, named after
/// the voice, on the voice's channel, opening with bank select (melodic banks only), program
/// change, CC7 level, CC10 pan and the effect controllers (CC91 reverb send, CC74/CC71 filter).
/// Events must arrive in time order: a tick earlier than the track's last is a programming error.
public final class MIDIRecorder: SessionSink {
    /// Ticks per quarter note.
    public static let ticksPerQuarter: UInt16 = 960

    private let writer: MIDIFileWriter
    private var ticksPerSecond: Double
    // A live tempo change rebases the conversion: tick = baseTick + (t − baseTime) × ticksPerSecond.
    private var baseTick: UInt64 = 0
    private var baseTime = 0.0
    private let channels: [UInt8]
    private var lastTick: [UInt64]

    /// Opens `path` (created as a temporary now, so a bad path fails before the session runs).
    public init(path: String, plan: SessionPlan) throws(SessionError) {
        let voices = plan.voices.voices
        do {
            writer = try MIDIFileWriter(path: path, trackCount: voices.count + 1, ticksPerQuarter: Self.ticksPerQuarter)
        } catch {
            throw .cannotCreate("cannot write MIDI file: \(error)")
        }
        channels = voices.map { UInt8($0.channel) }
        lastTick = Array(repeating: 0, count: voices.count + 1)
        let clock = plan.clock
        ticksPerSecond = clock.tempo / 60 * Double(Self.ticksPerQuarter)
        let text = "\(Clumsy.name) \(Clumsy.version); preset \(Quote.ascii(plan.name)); seed \(plan.seed); "
            + "gravity \(Format.plain(plan.gravity)) m/s^2; speed \(Format.plain(plan.speed)) m/s; key \(plan.key.name(.ascii))"
        let unitPower: UInt8 = clock.meter.unit == 8 ? 3 : 2
        // MIDI clocks per metronome click: a quarter is 24; in x/8 the click is a dotted quarter when the bar divides in threes.
        let click: UInt8 = clock.meter.unit == 8 ? (clock.meter.beats % 3 == 0 ? 36 : 12) : 24
        try append(.tempo(microsecondsPerQuarter: UInt32((60_000_000 / clock.tempo).rounded())), track: 0, tick: 0)
        try append(.timeSignature(numerator: UInt8(clock.meter.beats), denominatorPowerOfTwo: unitPower, clocksPerClick: click, thirtySecondsPerQuarter: 8), track: 0, tick: 0)
        try append(.text(text), track: 0, tick: 0)
        for (index, voice) in voices.enumerated() {
            let track = index + 1
            let channel = UInt8(voice.channel)
            try append(.trackName(voice.name), track: track, tick: 0)
            if voice.tone.bank < 128 {
                try append(.controlChange(channel: channel, controller: 0, value: UInt8(voice.tone.bank)), track: track, tick: 0)
            }
            try append(.programChange(channel: channel, program: UInt8(voice.tone.program)), track: track, tick: 0)
            try append(.controlChange(channel: channel, controller: 7, value: UInt8(voice.level)), track: track, tick: 0)
            try append(.controlChange(channel: channel, controller: 10, value: UInt8(voice.openingPan)), track: track, tick: 0)
            for (controller, value) in plan.sound.controllers {
                try append(.controlChange(channel: channel, controller: controller, value: value), track: track, tick: 0)
            }
        }
    }

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
            case .note(let note):
                let channel = channels[note.voice.rawValue]
                let message: MIDIMessage = note.kind == .on
                    ? .noteOn(channel: channel, note: UInt8(note.note), velocity: UInt8(note.velocity))
                    : .noteOff(channel: channel, note: UInt8(note.note), velocity: 0)
                try append(message, track: note.voice.rawValue + 1, tick: tick(note.time))
            case .control(let at, let voice, let controller, let value):
                try append(.controlChange(channel: channels[voice.rawValue], controller: UInt8(controller), value: UInt8(value)),
                           track: voice.rawValue + 1, tick: tick(at))
            case .live(let at, _, .tempo(let bpm)):
                // Seconds stay where they were; the bars follow the new tempo from here on.
                baseTick = tick(at)
                baseTime = at
                ticksPerSecond = bpm / 60 * Double(Self.ticksPerQuarter)
                try append(.tempo(microsecondsPerQuarter: UInt32((60_000_000 / bpm).rounded())), track: 0, tick: baseTick)
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
