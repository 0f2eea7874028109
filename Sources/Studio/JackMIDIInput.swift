// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CJack
import MIDIWire
#if canImport(Glibc)
import Glibc
#endif

/// A JACK client (`clumsy-in`) with one MIDI input port, `midi_in`: the messages played into
/// it, in order, for the session thread to take at its steps (`--midi-in jack`). JACK's
/// process callback (C, in the shim) copies them into a lock-free ring.
public final class JackMIDIInput: LiveMIDIInput {
    private let state: UnsafeMutablePointer<clumsy_jack_input>
    private var isClosed = false
    /// The input port's full name (`clumsy-in:midi_in`), to connect a controller or sequencer to.
    public let portName: String

    /// Opens the client and its port on the server `$JACK_DEFAULT_SERVER` (else `default`).
    /// No server: `.unavailable` naming it, `flag` (what asked for the port) and how to start one.
    public init(clientName: String = "clumsy-in", port: String = "midi_in", flag: String = "--midi-in jack",
                environment: [String: String]) throws(StudioError) {
        let server = JackMIDIOutput.serverName(environment: environment)
        var status: Int32 = 0
        guard let state = clumsy_jack_open_input(clientName, port, &status) else {
            if status != 0 {
                throw .noJackServer(server, status: status, for: flag)
            }
            throw .unavailable("JACK refused the MIDI input port \(clientName):\(port) on server \"\(server)\"")
        }
        guard state.pointee.deaf == 0 else {
            clumsy_jack_input_close(state)
            throw .jackDeaf(clientName, server: server)
        }
        self.state = state
        portName = String(cString: clumsy_jack_input_port_name(state))
    }

    /// The messages received since the last call, oldest first, each with the server's frame
    /// time at which it arrived (`frameTime`'s count).
    public func takeTimed() -> [(frame: UInt32, message: MIDIBytes)] {
        guard !isClosed else { return [] }
        var messages: [(frame: UInt32, message: MIDIBytes)] = []
        var event = clumsy_jack_event()
        while clumsy_jack_input_pop(state, &event) != 0 {
            // The callback keeps messages of 1…3 bytes (longer ones, System Exclusive, it drops).
            guard (1...3).contains(Int(event.size)) else { continue }
            messages.append((event.frame, MIDIBytes(status: event.bytes.0, data1: event.bytes.1, data2: event.bytes.2, count: Int(event.size))))
        }
        return messages
    }

    /// The server's frame time now.
    public var frameTime: UInt32 { isClosed ? 0 : clumsy_jack_input_frame_time(state) }

    /// The server's sample rate, Hz.
    public var sampleRate: Double { isClosed ? 48_000 : Double(clumsy_jack_input_sample_rate(state)) }

    /// Connects `source` (a JACK MIDI output) to this input.
    /// - Throws: `.usage` naming the port JACK refused, for `flag`.
    public func connect(from source: String, flag: String) throws(StudioError) {
        guard !isClosed else { return }
        let result = jack_connect(state.pointee.client, source, portName)
        if result != 0 && result != EEXIST {
            throw .usage("\(flag): JACK cannot connect \(source) to \(portName) (no such MIDI output port; list them with `jack_lsp -t`)")
        }
    }

    private var liveness = JackLiveness()

    /// True when the server went away or stopped running cycles (`JackLiveness`); each call
    /// notes the cycles run.
    public var isGone: Bool {
        guard !isClosed else { return false }
        return clumsy_jack_input_is_shut_down(state) != 0 || liveness.check(cycles: clumsy_jack_input_cycles(state))
    }

    /// Messages dropped because the session did not take them in time.
    public var overflowed: UInt64 { isClosed ? 0 : clumsy_jack_input_overflowed(state) }

    /// Closes the client. Idempotent. A stalled server would not answer: the client is then
    /// left to the process's exit.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        if !liveness.isStalled { clumsy_jack_input_close(state) }
    }

    deinit { close() }
}
