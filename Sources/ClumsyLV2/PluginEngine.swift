// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CClumsyLV2
import Controls
import Engine
import Errors
import MIDIWire
import Performance

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
    var simulator: Simulator?
    var router: NoteRouter?
    /// The session's position in the host's beats (`beatUnit` notes), to see a relocation when
    /// the host gives no frame.
    var beats = 0.0
    /// The host transport's frame the session is at (nil until the host gives one): a
    /// position elsewhere is a relocation. Frames, not beats: a host's bar and beat may
    /// drift from its frames (jack_transport's whole ticks lose 2 % at 90 bpm).
    var hostFrame: Int64?
    /// A rebuild asked of the worker (host beats, tempo, controls), and what the worker made of it.
    var seek: Seek?
    /// True from scheduling a seek's work until its response.
    var isWorking = false
    /// True while a rebuild is asked for: the session is silent until it takes over.
    var isSeeking: Bool { seek != nil }
    /// The seek handed to the worker last, and one it could not build (not asked again).
    var worked: Seek?
    var unbuildable: Seek?
    var framesSinceSeek: Int64 = 0
    var prepared: (simulator: Simulator, router: NoteRouter, seek: Seek)?
    /// The controls the ports (and MIDI in) ask for now; a change that needs a rebuild is a seek.
    var wanted: PluginControls?
    /// The key and mode ports as last read (a key from MIDI in holds until they move).
    var portKey: Int?
    var portMode: Int?
    /// Source channel → the channel it goes out on (the channel ports), and for every sounding
    /// note (source channel × 128 + note) the channel its note-on went out on.
    var channelMap: [UInt8]
    var offChannel: [UInt8]
    /// MIDI in: the notes held down (the rules shared with `clumsy run --midi-in`).
    var held = HeldNotes()
    /// The degree whose chord a held chord asked for, waiting for the rebuild in its key.
    var heldChord: Int?
    /// The session a relocation replaced: released by the worker, never on the audio thread.
    var retired: Simulator?
    var retiredRouter: NoteRouter?
    /// The session's frame of the next frame to run (frames since the transport started).
    var frame: Int64 = 0
    var isRolling = false
    var tempo = 0.0
    var pending: MessageQueue
    /// Messages for the current block that no step made (note-offs at a stop), block-relative.
    var outbox: MessageQueue
    /// Sounding notes, channel × 128 + note: what a stop must end.
    var sounding: [Bool]
    /// True while a UI is open: the steps note what struck what (PluginEngine+View.swift).
    var isViewOpen = false
    /// Bouncers (bit degree − 1) and keys (bit 16 + key − 1) struck since the last frame.
    var hits: UInt32 = 0
    /// The degree of the chord playing (its last chord event), 0 before the first.
    var chordDegree = 0

    /// The sample rates the plugin accepts at `instantiate`, Hz.
    static let rates: ClosedRange<Double> = 1000...1_536_000

    /// Messages that fit between two blocks; more are dropped (and counted).
    static let queueCapacity = 4096

    init(presetPaths: [String], rate: Double) {
        self.presetPaths = presetPaths
        self.rate = rate
        tempoRange = Limits.tempo.range
        pending = MessageQueue(capacity: Self.queueCapacity)
        outbox = MessageQueue(capacity: Self.queueCapacity)
        sounding = [Bool](repeating: false, count: 16 * 128)
        channelMap = (0..<16).map { UInt8($0) }
        offChannel = (0..<16 * 128).map { UInt8($0 / 128) }
    }

    /// Messages dropped (a full queue) already reported.
    private var reportedDrops = 0

    /// Says how many messages a full queue dropped since the last time (more than
    /// `queueCapacity` in one block: a host's blocks of about a million frames). Called where
    /// the plugin may write, never in `run()`: at activate and at cleanup.
    func reportDrops() {
        let dropped = pending.dropped + outbox.dropped
        guard dropped > reportedDrops else { return }
        report(.io("\(dropped - reportedDrops) MIDI messages were dropped: more than \(Self.queueCapacity) fell in one block; "
            + "run the plugin in smaller blocks (a few thousand frames)"))
        reportedDrops = dropped
    }

    /// Builds the session of `controls` (every port but the channels): not real-time.
    func activate(_ controls: PluginControls) throws(SessionError) {
        reportDrops()
        let simulator = try Self.session(controls, presetPaths: presetPaths)
        wanted = controls
        (portKey, portMode) = (controls.key, controls.mode)
        router = NoteRouter(voices: simulator.plan.voices)
        mapChannels()
        tempo = simulator.plan.clock.tempo
        simulator.begin()
        self.simulator = simulator
        frame = 0
        beats = 0
        hostFrame = nil
        isRolling = false
        seek = nil
        isWorking = false
        (worked, unbuildable) = (nil, nil)
        prepared = nil
        retired = nil
        retiredRouter = nil
        pending.removeAll()
        outbox.removeAll()
        for index in sounding.indices { sounding[index] = false }
        held.releaseAll()
    }

    /// The session of `controls`, built (and validated) the way `clumsy run` builds it.
    static func session(_ controls: PluginControls, presetPaths: [String]) throws(SessionError) -> Simulator {
        Simulator(plan: try plan(controls, presetPaths: presetPaths))
    }

    /// The plan of `controls` (the UI draws it without building a world).
    static func plan(_ controls: PluginControls, presetPaths: [String]) throws(SessionError) -> SessionPlan {
        let index = min(max(0, Int(controls.preset.rounded())), presetPaths.count - 1)
        return try SessionPlan.resolve(preset: presetPaths[index], overrides: try overrides(controls), duration: Limits.duration.upperBound)
    }

    /// The host's transport at `offset` in the current block.
    func transport(_ position: HostPosition, at offset: UInt32) {
        guard let simulator else { return }
        defer {
            if isRolling {
                switch jump(position) {
                case .skip(let frames): skip(frames)
                case .relocation: if let host = position.beats { relocate(to: host, at: offset) }
                case nil: break
                }
            }
            if let frame = position.frame { hostFrame = frame }
        }
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

    /// Ends every sounding note at `offset` and forgets what was still to come.
    func stop(at offset: UInt32) {
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
            out[written] = ClumsyMIDI(frame: UInt32(message.frame), bytes: routed(message.message))
            written += 1
        }
        guard isRolling, let simulator, count > 0 else { return written }
        beats += Double(count) / rate * tempo / 60
        if let host = hostFrame { hostFrame = host + Int64(count) }
        if isSeeking {
            framesSinceSeek += Int64(count)
            return written
        }
        let end = frame + Int64(count)
        let endTime = Double(end) / rate
        while simulator.time < endTime {
            simulator.step()
            if isViewOpen { noteHits(simulator.world.contacts) }
            take(simulator.stepEvents)
            simulator.clearEvents()
        }
        while let message = pending.first, message.frame < end, written < capacity {
            pending.removeFirst()
            // Only after a relocation do steps make messages for frames already gone (while the
            // new session catches up with the host): they are dropped, note-offs of sounding notes apart.
            if message.frame < frame && !isSoundingNoteOff(message.message) { continue }
            let at = UInt32(max(message.frame, frame) - frame) + offset
            note(message.message)
            out[written] = ClumsyMIDI(frame: at, bytes: routed(message.message))
            written += 1
        }
        frame = end
        return written
    }

    /// The opening's events (delivered by `begin`) wait for the first block.
    private func take(_ events: [SessionEvent]) {
        for event in events {
            switch event {
            case .note, .control:
                // Through the optional in place: a copy would copy the router's tables.
                router?.forEachMessage(of: event) { time, _, message in pending.append(PendingMessage(frame: frameOf(time), message: message)) }
            case .chord(let chord):
                chordDegree = chord.degree
            default:
                break
            }
        }
    }

    private func frameOf(_ time: Double) -> Int64 { Int64((time * rate).rounded()) }

    private func isSoundingNoteOff(_ message: MIDIBytes) -> Bool {
        let kind = message.status & 0xF0
        let off = kind == 0x80 || (kind == 0x90 && message.data2 == 0)
        return off && sounding[Int(message.status & 0x0F) * 128 + Int(message.data1)]
    }

    /// Keeps the sounding table as a message goes out.
    private func note(_ message: MIDIBytes) {
        let kind = message.status & 0xF0
        guard kind == 0x90 || kind == 0x80 else { return }
        sounding[Int(message.status & 0x0F) * 128 + Int(message.data1)] = kind == 0x90 && message.data2 > 0
    }
}
