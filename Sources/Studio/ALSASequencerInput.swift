// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CALSA
import MIDIWire
#if canImport(Glibc)
import Glibc
#endif

/// An ALSA sequencer client with one writable, subscribable port (`--clock-in alsa`,
/// `--midi-in alsa`): a controller, sequencer or clock master subscribes to it (`aconnect`),
/// or it subscribes to a named output itself.
///
/// Each incoming event is stamped by the kernel on the client's own queue, in real time, as it
/// arrives (not when the session reads it), so a clock's pulses keep their spacing however
/// late the session thread comes to take them. `frame` counts that queue's microseconds, so
/// the input's "sample rate" is 1 MHz. Without `/dev/snd/seq` opening fails with `.unavailable`.
public final class ALSASequencerInput: LiveMIDIInput {
    private let sequencer: OpaquePointer
    private let decoder: OpaquePointer
    private let queue: Int32
    private let port: Int32
    private var isClosed = false
    private var overruns: UInt64 = 0
    private var failed = false
    /// `client:port` by name, to subscribe a controller to with `aconnect`.
    public let portName: String

    /// Opens the sequencer, its queue and the input port; subscribes it to `source`
    /// (`client:port`, each an exact name or a number) when given.
    /// - Throws: `.unavailable` without a sequencer; `.usage` naming `flag` when `source` is
    ///   no output ALSA knows.
    public init(clientName: String, port name: String, source: String? = nil, flag: String) throws(StudioError) {
        let (handle, midiDecoder) = try ALSASequencer.open(mode: clumsy_seq_open_duplex(), flags: clumsy_seq_nonblock(),
                                                           clientName: clientName, flag: flag)
        let queue = snd_seq_alloc_named_queue(handle, clientName)
        let port = queue < 0 ? queue : clumsy_seq_create_input_port(handle, name, queue)
        let started = port < 0 ? port : clumsy_seq_start_queue(handle, queue)
        guard started >= 0 else {
            snd_midi_event_free(midiDecoder)
            snd_seq_close(handle)
            throw .unavailable("ALSA refused the sequencer input \(clientName):\(name) (\(String(cString: snd_strerror(started))))")
        }
        sequencer = handle
        decoder = midiDecoder
        self.queue = queue
        self.port = port
        portName = "\(clientName):\(name)"
        if let source { try connect(from: source, flag: flag) }
    }

    /// Subscribes the input to the output `source` (`client:port`, each an exact name or a
    /// number; split at the last colon).
    /// - Throws: `.usage` naming `flag` when ALSA knows no such output.
    public func connect(from source: String, flag: String) throws(StudioError) {
        guard !isClosed else { return }
        let connected = clumsy_seq_connect_from(sequencer, port, source)
        if connected < 0 {
            throw .usage("\(flag) alsa:\(source): ALSA cannot subscribe \(portName) to \(source) "
                + "(\(String(cString: snd_strerror(connected)))); list the outputs with `aconnect -o`")
        }
    }

    deinit { close() }

    /// The queue's microseconds now, truncated to 32 bits as JACK's frames are (the reader
    /// unwraps them).
    public var frameTime: UInt32 {
        guard !isClosed else { return lastFrame }
        let micros = clumsy_seq_queue_micros(sequencer, queue)
        // A failed read keeps the last time (a 0 would read as a wrap of the counter).
        if micros >= 0 { lastFrame = UInt32(truncatingIfNeeded: micros) }
        return lastFrame
    }
    private var lastFrame: UInt32 = 0

    /// Microseconds: one "frame" a microsecond.
    public var sampleRate: Double { 1_000_000 }

    public func takeTimed() -> [(frame: UInt32, message: MIDIBytes)] {
        guard !isClosed else { return [] }
        var messages: [(frame: UInt32, message: MIDIBytes)] = []
        var bytes: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        var micros: Int64 = -1
        while true {
            let size = withUnsafeMutableBytes(of: &bytes) { raw in
                clumsy_seq_receive(sequencer, decoder, raw.bindMemory(to: UInt8.self).baseAddress, 4, &micros, &overruns)
            }
            if size < 0 { failed = true }
            guard size > 0 else { break }
            guard let message = withUnsafeBytes(of: &bytes, { MIDIBytes(prefixOf: $0.prefix(Int(size))) }) else { continue }
            let frame = micros >= 0 ? UInt32(truncatingIfNeeded: micros) : frameTime
            messages.append((frame, message))
        }
        return messages
    }

    /// True once reading from the sequencer failed (the client was removed).
    public var isGone: Bool { failed }

    /// Events the kernel dropped because the session did not take them in time.
    public var overflowed: UInt64 { overruns }

    public func close() {
        guard !isClosed else { return }
        isClosed = true
        snd_midi_event_free(decoder)
        snd_seq_close(sequencer)
    }

    /// How a message another client sends reaches this input: alsa-lib's encoder turns the
    /// bytes into a sequencer event, its decoder back into the bytes Clumsy reads. Needs no
    /// sequencer (testable anywhere); nil when ALSA has no event for the bytes.
    public static func roundTrip(_ message: [UInt8]) -> [UInt8]? {
        var encoder: OpaquePointer?, decoder: OpaquePointer?
        guard snd_midi_event_new(16, &encoder) >= 0, let encoder else { return nil }
        defer { snd_midi_event_free(encoder) }
        guard snd_midi_event_new(16, &decoder) >= 0, let decoder else { return nil }
        defer { snd_midi_event_free(decoder) }
        var out = [UInt8](repeating: 0, count: 16)
        let size = clumsy_seq_round_trip(encoder, decoder, message, message.count, &out, out.count)
        return size > 0 ? Array(out.prefix(size)) : nil
    }
}
