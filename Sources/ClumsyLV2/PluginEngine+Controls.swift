// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Engine
import Errors
import MIDIWire
import Performance
import Theory

/// The control ports and MIDI in, read in `run()` without allocating.
///
/// Gravity and speed are queued on the simulator and take effect at its next step, as OSC's
/// do; the channel ports change where notes go out. The rest (preset, seed, key, mode,
/// quantize, swing, balls) build a different session: a change asks the worker for that
/// session at the host's position, as a relocation does, so from there on the notes are
/// `clumsy run`'s with those flags at that bar (the block of the change ends what sounds).
///
/// MIDI in steers it: a chord of three or more held notes sets the key whose tonic chord it is
/// (`heldKey`), through the same rebuild, and makes it the chord playing; a single note drops a piano ball (the one longest
/// without a key hit) at the next step.
extension PluginEngine {
    /// The ports' values at the start of a block.
    func controls(_ new: PluginControls) {
        guard let simulator, let current = wanted else { return }
        if new.gravityPort != current.gravityPort, let gravity = new.gravity { simulator.queue(.gravity(min(gravity, 100))) }
        if new.speedPort != current.speedPort, let speed = new.speed { simulator.queue(.speed(min(max(speed, 0.1), 20))) }
        // A key set from MIDI in holds until the key or mode port moves.
        var new = new
        if new.key == portKey && new.mode == portMode { (new.key, new.mode) = (current.key, current.mode) } else { (portKey, portMode) = (new.key, new.mode) }
        let channelsMoved = new.bassChannel != current.bassChannel || new.keysChannel != current.keysChannel
        wanted = new
        if channelsMoved { mapChannels() }
        if new.rebuilds(from: current) { relocate(to: beats, at: 0) }
    }

    /// MIDI from the host at `offset` of the block.
    func midi(status: UInt8, data1: UInt8, data2: UInt8, at offset: UInt32) {
        switch held.receive(MIDIBytes(status: status, data1: data1, data2: data2, count: 3)) {
        case nil:
            return
        case .drop:
            simulator?.queue(.lift)
        case .key(let tonic, let scale):
            guard let current = wanted else { return }
            var new = current
            (new.key, new.mode) = (tonic.value, Self.modeIndex(scale))
            wanted = new
            // The held chord is the new key's tonic chord: chord I takes over, in the session
            // rebuilt in that key (queued when it takes over) or now if the key stays.
            heldChord = 1
            if new.rebuilds(from: current) { relocate(to: beats, at: offset) } else { playHeldChord() }
        }
    }

    /// The drop port moved to `value` (0…1000 across the piano area): a `place` at the next step.
    func place(_ value: Float) {
        guard value.isFinite else { return }
        simulator?.queue(.place(Int(min(max(value.rounded(), 0), 1000))))
    }

    /// The chord a held chord asked for, at the playing session's next step (`Control.chord`).
    func playHeldChord() {
        guard let degree = heldChord, let simulator else { return }
        simulator.queue(.chord(degree))
        heldChord = nil
    }

    /// The `mode` port's value of `scale`.
    private static func modeIndex(_ scale: Scale) -> Int {
        Scale.all.firstIndex { $0.name == scale.name } ?? 0
    }

    /// The flags a session of `controls` is built with, as `clumsy run` would be given them.
    static func overrides(_ controls: PluginControls) throws(SessionError) -> Overrides {
        var overrides = Overrides(seed: controls.seed, gravity: controls.gravity, speed: controls.speed)
        if let key = controls.key { overrides.flags["key"] = PortChoices.tonics[key] }
        if let mode = controls.mode { overrides.flags["mode"] = PortChoices.modes[mode] }
        if let grid = controls.quantize { overrides.flags["quantize"] = PortChoices.grids[grid] }
        if let swing = controls.swing { overrides.assignments.append(FieldAssignment(path: "time.swing", value: .number(swing))) }
        if let balls = controls.balls { overrides.assignments.append(FieldAssignment(path: "piano.count", value: .number(Double(balls)))) }
        return overrides
    }

    /// Sets `channelMap` from the channel ports and the voices' own channels.
    func mapChannels() {
        for index in channelMap.indices { channelMap[index] = UInt8(index) }
        guard let router, let wanted else { return }
        if let channel = wanted.bassChannel { for own in router.channels(of: .bass) { channelMap[own.channel] = UInt8(channel) } }
        if let channel = wanted.keysChannel { for own in router.channels(of: .keys) { channelMap[own.channel] = UInt8(channel) } }
    }

    /// `message` on the channel it goes out on: a note-off on its note-on's.
    func routed(_ message: MIDIBytes) -> MIDIBytes {
        let kind = message.status & 0xF0
        let source = Int(message.status & 0x0F)
        let index = source * 128 + Int(message.data1 & 127)
        var out = message
        switch kind {
        case 0x90 where message.data2 > 0:
            offChannel[index] = channelMap[source]
            out.status = kind | channelMap[source]
        case 0x80, 0x90:
            out.status = kind | offChannel[index]
        case 0xA0, 0xB0, 0xC0, 0xD0, 0xE0:
            out.status = kind | channelMap[source]
        default:
            break
        }
        return out
    }
}
