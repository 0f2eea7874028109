import MIDIFile
import Performance

/// Records a session to a format 1 Standard MIDI File, streaming (flat memory).
///
/// Track 0: tempo, 4/4, and a text event naming the program, preset, seed, gravity and speed.
/// Track 1 "Bass" on channel 1, track 2 "Keys" on channel 2, each opening with bank select,
/// program change, and the effect controllers (CC91 reverb send, CC74/CC71 filter).
public final class MIDIRecorder: SessionSink {
    /// Ticks per quarter note.
    public static let ticksPerQuarter: UInt16 = 960
    /// Channel (0-based) of each voice: bass on MIDI channel 1, keys on 2.
    public static func channel(of voice: Voice) -> UInt8 { UInt8(voice.rawValue) }

    private let writer: MIDIFileWriter
    private var ticksPerSecond: Double
    // A live tempo change rebases the conversion: tick = baseTick + (t − baseTime) × ticksPerSecond.
    private var baseTick: UInt64 = 0
    private var baseTime = 0.0
    private var lastTick: [UInt64] = [0, 0, 0]

    /// Opens `path` (created as a temporary now, so a bad path fails before the session runs).
    public init(path: String, configuration: Configuration, sound: Preset.Sound?) throws(SessionError) {
        do {
            writer = try MIDIFileWriter(path: path, trackCount: 3, ticksPerQuarter: Self.ticksPerQuarter)
        } catch {
            throw .cannotCreate("cannot write MIDI file: \(error)")
        }
        let preset = configuration.preset
        ticksPerSecond = preset.tempo / 60 * Double(Self.ticksPerQuarter)
        let text = "\(Clumsy.name) \(Clumsy.version); preset \(preset.name); seed \(configuration.seed); "
            + "gravity \(Format.plain(preset.gravity)) m/s^2; speed \(Format.plain(preset.speed)) m/s; key \(preset.key.description)"
        try append(.tempo(microsecondsPerQuarter: UInt32((60_000_000 / preset.tempo).rounded())), track: 0, tick: 0)
        try append(.timeSignature(numerator: 4, denominatorPowerOfTwo: 2, clocksPerClick: 24, thirtySecondsPerQuarter: 8), track: 0, tick: 0)
        try append(.text(text), track: 0, tick: 0)
        for (voice, tone) in [(Voice.bass, configuration.bassTone), (Voice.keys, configuration.keysTone)] {
            let track = voice.rawValue + 1
            let channel = Self.channel(of: voice)
            try append(.trackName(voice.name), track: track, tick: 0)
            try append(.controlChange(channel: channel, controller: 0, value: UInt8(tone.bank)), track: track, tick: 0)
            try append(.programChange(channel: channel, program: UInt8(tone.program)), track: track, tick: 0)
            for (controller, value) in (sound?.controllers ?? []) {
                try append(.controlChange(channel: channel, controller: controller, value: value), track: track, tick: 0)
            }
        }
    }

    private func append(_ message: MIDIMessage, track: Int, tick: UInt64) throws(SessionError) {
        let tick = max(tick, lastTick[track])
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
            if case .control(let time, _, .tempo(let bpm)) = event {
                // Seconds stay where they were; the bars follow the new tempo from here on.
                baseTick = tick(time)
                baseTime = time
                ticksPerSecond = bpm / 60 * Double(Self.ticksPerQuarter)
                try append(.tempo(microsecondsPerQuarter: UInt32((60_000_000 / bpm).rounded())), track: 0, tick: baseTick)
                continue
            }
            guard case .note(let note) = event else { continue }
            let channel = Self.channel(of: note.voice)
            let message: MIDIMessage = note.kind == .on
                ? .noteOn(channel: channel, note: UInt8(note.note), velocity: UInt8(note.velocity))
                : .noteOff(channel: channel, note: UInt8(note.note), velocity: 0)
            try append(message, track: note.voice.rawValue + 1, tick: tick(note.time))
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
