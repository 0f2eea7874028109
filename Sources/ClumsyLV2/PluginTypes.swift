// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CClumsyLV2
import Errors
import MIDIWire
import Text
#if canImport(Glibc)
import Glibc
#endif

/// A MIDI message waiting for its frame (frames since the transport started, or in the block).
struct PendingMessage {
    var frame: Int64
    var message: MIDIBytes
}

/// A first-in first-out queue of messages in storage allocated once: append and remove never
/// allocate (a full queue drops the message and counts it).
struct MessageQueue {
    private var storage: [PendingMessage]
    private var head = 0
    private(set) var count = 0
    /// Messages dropped because the queue was full.
    private(set) var dropped = 0

    init(capacity: Int) {
        storage = [PendingMessage](repeating: PendingMessage(frame: 0, message: .stop), count: capacity)
    }

    var first: PendingMessage? { count > 0 ? storage[head] : nil }

    mutating func append(_ message: PendingMessage) {
        guard count < storage.count else { dropped += 1; return }
        storage[(head + count) % storage.count] = message
        count += 1
    }

    mutating func removeFirst() {
        guard count > 0 else { return }
        head = (head + 1) % storage.count
        count -= 1
    }

    mutating func removeAll() {
        head = 0
        count = 0
    }
}

/// The control ports as the session reads them: a port at its "preset's own" value is nil.
struct PluginControls: Equatable {
    /// Index into the bundle's presets.
    var preset: Float
    /// The seed port (0: the preset's own seed).
    var seed: UInt64?
    /// Gravity, m/s² (port below 0: the preset's own).
    var gravity: Double?
    /// Bass ball speed, m/s (port 0: the preset's own).
    var speed: Double?
    /// Tonic 0…11 (C…B), an index into `PortChoices.modes`, into `Grid.all`.
    var key: Int?
    var mode: Int?
    var quantize: Int?
    /// Swing, 0…0.75.
    var swing: Double?
    /// Piano balls (`piano.count`).
    var balls: Int?
    /// 0-based MIDI channels the bass's and the keys' notes go out on instead of their own.
    var bassChannel: Int?
    var keysChannel: Int?
    /// The ports' raw values (to see changes).
    var gravityPort: Double
    var speedPort: Double

    /// Every port is read as a host may send it, out of its range, infinite or NaN: a value
    /// past the port's range is clamped to it, a NaN is the preset's own (the preset port's:
    /// the first preset), and no float reaches an integer conversion unchecked (one would
    /// trap, taking the host down).
    init(_ c: ClumsyControls) {
        preset = c.preset.isNaN ? 0 : min(max(c.preset, 0), Self.presetPortLimit)
        seed = Self.seed(c.seed)
        gravity = c.gravity >= 0 ? Self.decimal(min(c.gravity, Self.gravityLimit)) : nil
        speed = c.speed > 0 ? Self.decimal(min(max(c.speed, Self.speedFloor), Self.speedLimit)) : nil
        key = Self.index(c.key, below: 12)
        mode = Self.index(c.mode, below: PortChoices.modes.count)
        quantize = Self.index(c.quantize, below: PortChoices.grids.count)
        swing = c.swing >= 0 ? Self.decimal(min(c.swing, 0.75)) : nil
        balls = Self.index(c.balls, below: 1001)
        bassChannel = Self.index(c.bass_channel - 1, below: 16)
        keysChannel = Self.index(c.keys_channel - 1, below: 16)
        gravityPort = Double(c.gravity)
        speedPort = Double(c.speed)
    }

    /// A port's float as the decimal it was typed as (0.3, not 0.30000001192…), to a millionth:
    /// what `clumsy run` reads from the same flag.
    private static func decimal(_ value: Float) -> Double {
        (Double(value) * 1e6).rounded() / 1e6
    }

    /// A port's value as an index `0..<count`, nil below 0 or NaN (clamped above, +∞ included).
    private static func index(_ value: Float, below count: Int) -> Int? {
        guard !value.isNaN, value > -0.5 else { return nil }
        return Int(min(value.rounded(), Float(count - 1)))
    }

    /// The seed port: nil below 1 or not finite (the preset's own), clamped to `UInt64.max`.
    private static func seed(_ value: Float) -> UInt64? {
        guard value.isFinite, value >= 1 else { return nil }
        // 2^64 is the first float past UInt64.max; every float below it is a whole number
        // there or rounds to one below it.
        return value < 18_446_744_073_709_551_616 ? UInt64(value.rounded()) : .max
    }

    /// The upper ends of the gravity and speed ports' ranges (the Turtle's `lv2:maximum`).
    static let gravityLimit: Float = 100
    static let speedLimit: Float = 20
    /// The slowest bass ball a session takes (the `speed` row's lower bound): a port between 0
    /// and it is raised to it, as a live change is.
    static let speedFloor: Float = 0.1
    /// Past any bundle's number of presets; keeps the preset port's value an `Int`.
    static let presetPortLimit: Float = 1_000_000

    /// True when going from `other` to these controls needs the session built again (preset,
    /// seed, key, mode, quantize, swing or balls changed, or gravity or speed back to the
    /// preset's own); gravity and speed set to a value, and the channels, are live.
    func rebuilds(from other: PluginControls) -> Bool {
        preset.rounded() != other.preset.rounded() || seed != other.seed || key != other.key || mode != other.mode
            || quantize != other.quantize || swing != other.swing || balls != other.balls
            || (gravity == nil && other.gravity != nil) || (speed == nil && other.speed != nil)
    }

    /// The C form, to carry a rebuild's controls to the worker.
    var c: ClumsyControls {
        ClumsyControls(preset: preset, seed: seed.map { Float($0) } ?? 0, gravity: Float(gravityPort), speed: Float(speedPort),
                       key: Float(key ?? -1), mode: Float(mode ?? -1), quantize: Float(quantize ?? -1), swing: Float(swing ?? -1),
                       balls: Float(balls ?? -1), bass_channel: Float((bassChannel ?? -1) + 1), keys_channel: Float((keysChannel ?? -1) + 1))
    }
}

/// The host's time:Position: each field nil when the host left it out.
struct HostPosition {
    var bpm: Double?
    var bar: Double?
    var barBeat: Double?
    var beatsPerBar: Double?
    var speed: Double?
    /// The transport's frame on its own timeline.
    var frame: Int64?

    /// A field that is NaN or infinite is as if the host left it out.
    init(_ t: ClumsyTransport) {
        func finite(_ has: Int32, _ value: Double) -> Double? { has != 0 && value.isFinite ? value : nil }
        bpm = finite(t.has_bpm, t.bpm)
        bar = finite(t.has_bar, t.bar)
        barBeat = finite(t.has_bar_beat, t.bar_beat)
        beatsPerBar = finite(t.has_beats_per_bar, t.beats_per_bar)
        speed = finite(t.has_speed, t.speed)
        frame = t.has_frame != 0 && t.frame.isFinite && abs(t.frame) < 1e15 ? Int64(t.frame) : nil
    }

    /// Beats since bar 0 (bar × beats per bar + beat in the bar), when the host gave all three.
    var beats: Double? {
        guard let bar, let barBeat, let beatsPerBar else { return nil }
        let beats = bar * beatsPerBar + barBeat
        return beats.isFinite ? beats : nil
    }
}

extension ClumsyMIDI {
    init(frame: UInt32, bytes message: MIDIBytes) {
        self.init(frame: frame, size: UInt8(message.count), bytes: (message.status, message.data1, message.data2))
    }
}

/// The bundle's preset list: presets.txt (one name a line, the `preset` port's order), each
/// name's file in `presets/`.
enum BundlePresets {
    static func paths(bundle: String) throws(SessionError) -> [String] {
        let directory = bundle.hasSuffix("/") ? String(bundle.dropLast()) : bundle
        let fd = try InputFile.open(directory + "/presets.txt", what: "preset list")
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { break }
            bytes += buffer[0..<n]
        }
        let names = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        guard !names.isEmpty else { throw .data("\(Quote.text(directory))/presets.txt: no presets listed; expected one name a line") }
        return names.map { directory + "/presets/" + $0 + ".json" }
    }
}
