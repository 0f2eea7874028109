import MIDIFile
import Performance

/// Records a session to a format 1 Standard MIDI File, streaming (flat memory).
///
/// Track 0: tempo, 4/4, and a text event naming the program, preset, seed, gravity and speed.
/// Track 1 "Bass" on channel 1, track 2 "Keys" on the keys' pan-zone channels (2–5, see
/// `MixPlan`), each channel opening with bank select, program change, CC7 volume, CC10 pan, CC8 balance
/// and the effect controllers (CC91 reverb send, CC74/CC71 filter) — what the sound uses.
/// A stem file (`only:` a voice) holds track 0 and that voice's track.
public final class MIDIRecorder: SessionSink {
    /// Ticks per quarter note.
    public static let ticksPerQuarter: UInt16 = 960

    private let writer: MIDIFileWriter
    private let ticksPerSecond: Double
    private var lastTick: [UInt64] = [0, 0, 0]
    private var router: NoteRouter
    /// The voice of a stem file, nil for the whole session.
    private let voice: Voice?

    /// Opens `path` (created as a temporary now, so a bad path fails before the session runs);
    /// with `voice`, records only that voice (a stem).
    public init(path: String, configuration: Configuration, sound: Preset.Sound?, only voice: Voice? = nil) throws(SessionError) {
        let plan = MixPlan(configuration)
        router = NoteRouter(plan: plan)
        self.voice = voice
        do {
            writer = try MIDIFileWriter(path: path, trackCount: voice == nil ? 3 : 2, ticksPerQuarter: Self.ticksPerQuarter)
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
        for recorded in Voice.allCases where voice == nil || voice == recorded {
            let track = self.track(of: recorded)
            try append(.trackName(recorded.name), track: track, tick: 0)
            for part in plan.parts[plan.part(of: recorded)].channels {
                let channel = UInt8(part.channel)
                try append(.controlChange(channel: channel, controller: 0, value: UInt8(part.bank)), track: track, tick: 0)
                try append(.programChange(channel: channel, program: UInt8(part.program)), track: track, tick: 0)
                for controller in part.placement {
                    try append(.controlChange(channel: channel, controller: UInt8(controller.number), value: UInt8(controller.value)),
                               track: track, tick: 0)
                }
                for (controller, value) in (sound?.controllers ?? []) {
                    try append(.controlChange(channel: channel, controller: controller, value: value), track: track, tick: 0)
                }
            }
        }
    }

    /// The track of a voice: 1 and 2 in the session's file, 1 in a stem file.
    private func track(of recorded: Voice) -> Int { voice == nil ? recorded.rawValue + 1 : 1 }

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
    func tick(_ time: Double) -> UInt64 { UInt64((time * ticksPerSecond).rounded()) }

    public func record(_ events: [SessionEvent], through time: Double) throws(SessionError) {
        for event in events {
            guard case .note(let note) = event, voice == nil || note.voice == voice else { continue }
            let channel = UInt8(router.channel(for: note))
            let message: MIDIMessage = note.kind == .on
                ? .noteOn(channel: channel, note: UInt8(note.note), velocity: UInt8(note.velocity))
                : .noteOff(channel: channel, note: UInt8(note.note), velocity: 0)
            try append(message, track: track(of: note.voice), tick: tick(note.time))
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
