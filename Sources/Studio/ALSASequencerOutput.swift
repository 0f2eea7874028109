// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CALSA
import MIDIWire
#if canImport(Glibc)
import Glibc
#endif

/// An ALSA sequencer client `Clumsy` with one readable, subscribable port per name (as
/// FluidSynth and Orca-c offer theirs): a DAW or `aconnect` subscribes to it.
///
/// Events go out directly (unqueued) when the session reaches them; the session is paced
/// to the wall clock. Without `/dev/snd/seq` (no sound modules, containers) opening fails
/// with `.unavailable`.
public final class ALSASequencerOutput: LiveMIDIPort {
    private let sequencer: OpaquePointer
    private let encoder: OpaquePointer
    private var ports: [Int32] = []
    /// Port names in index order.
    public let portNames: [String]
    private var isClosed = false
    private var failures = 0
    private let origin: Double

    /// Opens the sequencer and creates the ports.
    public init(clientName: String = "Clumsy", ports names: [String]) throws(StudioError) {
        let (handle, midiEncoder) = try ALSASequencer.open(mode: Int32(SND_SEQ_OPEN_OUTPUT), flags: 0,
                                                           clientName: clientName, flag: "--midi-out")
        sequencer = handle
        encoder = midiEncoder
        portNames = names
        for name in names {
            let port = snd_seq_create_simple_port(handle, name, clumsy_seq_readable_caps(), clumsy_seq_port_type())
            guard port >= 0 else {
                snd_midi_event_free(midiEncoder)
                snd_seq_close(handle)
                throw .unavailable("ALSA refused the sequencer port \(clientName):\(name)")
            }
            ports.append(port)
        }
        origin = Self.now()
    }

    deinit { close(timeout: 0) }

    public var isGone: Bool { false }

    /// When set (`--clock-in alsa`), whether a session time is due by the master's clock: the
    /// session waits for it instead of the wall clock (and so pauses while the master is stopped;
    /// the gate says true for a session being stopped, so a send never waits past Ctrl-C).
    public var gate: ((Double) -> Bool)?

    public func send(_ message: MIDIBytes, port: Int, at seconds: Double) -> Bool {
        guard !isClosed else { return false }
        // Unqueued, so each event waits for its own time: the session hands over a step's
        // events when the step before it is due, up to a step ahead of them. Never longer than
        // `sendWaitLimit` (the last note-offs of a session, a master that stopped: sent at once).
        let limit = Self.now() + Self.sendWaitLimit
        wait(until: seconds, shouldStop: { Self.now() > limit })
        var bytes = (message.status, message.data1, message.data2)   // no allocation per event
        let result = withUnsafeBytes(of: &bytes) { raw in
            clumsy_seq_send(sequencer, encoder, ports[port], raw.bindMemory(to: UInt8.self).baseAddress, message.count)
        }
        if result < 0 { failures += 1 }
        return true
    }

    /// The longest a send waits for its event's time, seconds (a step is at most 1/60 s).
    static let sendWaitLimit = 0.05

    /// CLOCK_MONOTONIC, seconds.
    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
    }

    public func wait(until seconds: Double, shouldStop: () -> Bool) {
        if let gate {
            while !shouldStop() && !gate(seconds) { usleep(500) }
            return
        }
        while !shouldStop() {
            let ahead = origin + seconds - Self.now()
            if ahead <= 0 { return }
            usleep(UInt32(min(ahead, 0.02) * 1e6))
        }
    }

    public func close(timeout: Double) {
        guard !isClosed else { return }
        isClosed = true
        snd_seq_drain_output(sequencer)
        snd_midi_event_free(encoder)
        snd_seq_close(sequencer)
    }

    public var deliveryReport: String? { failures > 0 ? "ALSA MIDI: \(failures) events could not be sent" : nil }

    /// How ALSA's own MIDI encoder reads `message`: the sequencer event type and its channel
    /// and data, as a subscriber would receive them. Needs no sequencer (testable anywhere).
    public static func encode(_ message: MIDIBytes) -> (type: SequencerEventType, channel: Int, data1: Int, data2: Int)? {
        var encoder: OpaquePointer?
        guard snd_midi_event_new(16, &encoder) >= 0, let encoder else { return nil }
        defer { snd_midi_event_free(encoder) }
        var channel: Int32 = 0, data1: Int32 = 0, data2: Int32 = 0
        let bytes = [message.status, message.data1, message.data2]
        let type = clumsy_seq_encode(encoder, bytes, message.count, &channel, &data1, &data2)
        guard type >= 0 else { return nil }
        let kind: SequencerEventType
        switch type {
        case clumsy_seq_noteon(): kind = .noteOn
        case clumsy_seq_noteoff(): kind = .noteOff
        case clumsy_seq_clock(): kind = .clock
        case clumsy_seq_start(): kind = .start
        case clumsy_seq_stop(): kind = .stop
        default: kind = .other(Int(type))
        }
        return (kind, Int(channel), Int(data1), Int(data2))
    }
}

/// The ALSA sequencer event types Clumsy sends.
public enum SequencerEventType: Sendable, Equatable {
    case noteOn, noteOff, clock, start, stop
    case other(Int)
}
