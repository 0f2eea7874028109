import CClumsyLV2
import Engine
import Performance
import Presets
import Studio

/// The plugin's engine: a `Simulator` stepped in the host's time, its notes as MIDI messages at
/// exact frames of the host's blocks.
///
/// Session time 0 is the frame where the host's transport started rolling; a block of `n`
/// frames steps the simulator until its time reaches the block's end, and every message whose
/// frame (`time × rate`, rounded) falls in the block goes out at that frame; later ones wait in
/// `pending`. Everything `process` touches is allocated in `activate` (and the simulator keeps
/// its own reserves), so the audio thread never allocates.
final class PluginEngine {
    /// The bundle's presets, in the order of the `preset` port's enumeration (presets.txt).
    let presetPaths: [String]
    /// Frames per second of the host.
    let rate: Double
    /// The tempos a session accepts (the settings table's `tempo` row), bpm; read here, not on
    /// the audio thread (the table is built lazily).
    private let tempoRange: ClosedRange<Double>
    private var simulator: Simulator?
    private var router: NoteRouter?
    /// The session's frame of the next frame to run (frames since the transport started).
    private var frame: Int64 = 0
    private var isRolling = false
    private var tempo = 0.0
    private var gravity = -1.0
    private var speed = 0.0
    private var pending: MessageQueue
    /// Messages for the current block that no step made (note-offs at a stop), block-relative.
    private var outbox: MessageQueue
    /// Sounding notes, channel × 128 + note: what a stop must end.
    private var sounding: [Bool]


    /// Messages that fit between two blocks; more are dropped (and counted).
    static let queueCapacity = 4096

    init(presetPaths: [String], rate: Double) {
        self.presetPaths = presetPaths
        self.rate = rate
        tempoRange = Settings.setting(flag: "tempo")?.numberRange ?? 20...400
        pending = MessageQueue(capacity: Self.queueCapacity)
        outbox = MessageQueue(capacity: Self.queueCapacity)
        sounding = [Bool](repeating: false, count: 16 * 128)
    }

    /// Builds the session of `controls` (preset, seed, gravity, speed): not real-time.
    func activate(_ controls: PluginControls) throws(SessionError) {
        let index = min(max(0, Int(controls.preset.rounded())), presetPaths.count - 1)
        let preset = try PresetLibrary.load(presetPaths[index])
        let overrides = Overrides(seed: controls.seed, gravity: controls.gravity, speed: controls.speed)
        let configuration = try Configuration(preset: preset, overrides: overrides, duration: Limits.duration.upperBound)
        let simulator = Simulator(configuration: configuration)
        router = NoteRouter(voices: simulator.plan.voices)
        tempo = simulator.plan.clock.tempo
        gravity = controls.gravityPort
        speed = controls.speedPort
        simulator.begin()
        self.simulator = simulator
        frame = 0
        isRolling = false
        pending.removeAll()
        outbox.removeAll()
        for index in sounding.indices { sounding[index] = false }
    }

    /// The host's transport at `offset` in the current block.
    func transport(_ position: HostPosition, at offset: UInt32) {
        guard let simulator else { return }
        if let bpm = position.bpm {
            let bpm = min(max(bpm, tempoRange.lowerBound), tempoRange.upperBound)
            if bpm != tempo {
                tempo = bpm
                simulator.queue(.tempo(bpm))
            }
        }
        if let speed = position.speed {
            let rolling = speed != 0
            if isRolling && !rolling { stop(at: offset) }
            isRolling = rolling
        }
    }

    /// Control port values: gravity and speed changes take effect at the next step.
    func controls(gravity newGravity: Double, speed newSpeed: Double) {
        guard let simulator else { return }
        if newGravity != gravity {
            gravity = newGravity
            if newGravity >= 0 { simulator.queue(.gravity(min(newGravity, 100))) }
        }
        if newSpeed != speed {
            speed = newSpeed
            if newSpeed > 0 { simulator.queue(.speed(min(max(newSpeed, 0.1), 20))) }
        }
    }

    /// Ends every sounding note at `offset` and forgets what was still to come.
    private func stop(at offset: UInt32) {
        for index in sounding.indices where sounding[index] {
            sounding[index] = false
            outbox.append(PendingMessage(frame: Int64(offset), message: .noteOff(channel: index / 128, note: index % 128)))
        }
        pending.removeAll()
    }

    /// Runs `count` frames from `offset`; writes at most `capacity` messages to `out`.
    func process(offset: UInt32, count: UInt32, into out: UnsafeMutablePointer<ClumsyMIDI>, capacity: Int) -> Int {
        var written = 0
        while let message = outbox.first, written < capacity {
            outbox.removeFirst()
            out[written] = ClumsyMIDI(frame: UInt32(message.frame), bytes: message.message)
            written += 1
        }
        guard isRolling, let simulator, count > 0 else { return written }
        let end = frame + Int64(count)
        let endTime = Double(end) / rate
        while simulator.time < endTime {
            simulator.step()
            take(simulator.stepEvents)
            simulator.clearEvents()
        }
        while let message = pending.first, message.frame < end, written < capacity {
            pending.removeFirst()
            let at = UInt32(max(message.frame, frame) - frame) + offset
            note(message.message)
            out[written] = ClumsyMIDI(frame: at, bytes: message.message)
            written += 1
        }
        frame = end
        return written
    }

    /// The opening's events (delivered by `begin`) wait for the first block.
    private func take(_ events: [SessionEvent]) {
        for event in events {
            switch event {
            case .note(let note):
                // Through the optional in place: a copy would copy the router's tables.
                guard let channel = router?.channel(for: note) else { return }
                let message: MIDIBytes = note.kind == .on
                    ? .noteOn(channel: channel, note: note.note, velocity: note.velocity)
                    : .noteOff(channel: channel, note: note.note)
                pending.append(PendingMessage(frame: frameOf(note.time), message: message))
            case .control(let time, let voice, let controller, let value):
                guard let router else { return }
                for channel in router.channels(of: voice) {
                    let message = MIDIBytes.controlChange(channel: channel.channel, controller: controller, value: value)
                    pending.append(PendingMessage(frame: frameOf(time), message: message))
                }
            default:
                break
            }
        }
    }

    private func frameOf(_ time: Double) -> Int64 { Int64((time * rate).rounded()) }

    /// Keeps the sounding table as a message goes out.
    private func note(_ message: MIDIBytes) {
        let kind = message.status & 0xF0
        guard kind == 0x90 || kind == 0x80 else { return }
        sounding[Int(message.status & 0x0F) * 128 + Int(message.data1)] = kind == 0x90 && message.data2 > 0
    }
}
