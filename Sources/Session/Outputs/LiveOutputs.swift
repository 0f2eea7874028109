// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Errors
import Live
import Sinks
import Text
import Vocabulary
/// `--clock-in jack[:port]` or `alsa[:client:port]`: the live session follows a MIDI clock
/// master (`ClockInSync`): opened before the live ports, whose notes it places on the master's beats.
struct ClockInOutput: SessionOutput {
    let flags = ["--clock-in"]

    func isRequested(_ request: RunRequest) -> Bool { request.clockIn != nil }

    /// The port to connect from, if `jack:<port>` or `alsa:<client:port>` named one.
    static func source(_ value: String) -> String? {
        for kind in ["jack:", "alsa:"] where value.hasPrefix(kind) && value.count > kind.count {
            return String(value.dropFirst(kind.count))
        }
        return nil
    }

    static func isALSA(_ value: String) -> Bool { value == "alsa" || value.hasPrefix("alsa:") }

    func validate(_ request: RunRequest) throws(SessionError) {
        guard let value = request.clockIn else { return }
        if !request.isLive { throw .usage("--clock-in only applies with --live") }
        guard value == "jack" || value == "alsa" || Self.source(value) != nil else {
            throw .usage("--clock-in \(Quote.text(value)) is not accepted; expected jack, jack:<MIDI output port>, alsa or alsa:<client:port>")
        }
        if Self.isALSA(value) {
            if request.midiOut == .jack {
                throw .usage("--clock-in alsa paces the session by the ALSA sequencer's clock: use --midi-out alsa, not jack")
            }
            if let source = Self.source(value), request.sendsClock, source == "Clumsy:clock" {
                throw .usage("--clock-in alsa:\(source) would feed the session's own clock back into its clock input")
            }
            return
        }
        if request.midiOut == .alsa { throw .usage("--clock-in jack paces the session by JACK's clock: use --midi-out jack, not alsa") }
        if request.clockConnections.contains("clumsy-clock:clock_in") {
            throw .usage("--connect-clock clumsy-clock:clock_in would feed the session's clock back into its own clock input")
        }
    }

    func open(_ run: OutputRun, _ wiring: OutputWiring) throws(SessionError) {
        guard let value = run.request.clockIn else { return }
        let standardError = run.standardError
        let notice: ((String) -> Void)? = run.request.isQuiet ? nil : { text in
            standardError.write("clumsy: \(text)\n")
            standardError.flush()
        }
        let sync = try ClockInSync(plan: run.plan, alsa: Self.isALSA(value), source: Self.source(value),
                                   environment: run.request.environment, notice: notice)
        wiring.master = sync
        wiring.failsWith { sync.failure }
        wiring.closesAtEnd(sync.close)
    }
}

/// `--transport jack`: the live session follows JACK transport (`TransportSync`), in takes
/// (`TransportTakes`); opened by the runner before the session is built, so the session has
/// the timebase master's tempo and meter.
struct TransportOutput: SessionOutput {
    let flags = ["--transport"]

    func isRequested(_ request: RunRequest) -> Bool { request.transport != nil }

    func validate(_ request: RunRequest) throws(SessionError) {
        guard let value = request.transport else { return }
        if !request.isLive { throw .usage("--transport only applies with --live") }
        guard value == "jack" else { throw .usage("--transport \(Quote.text(value)) is not accepted; expected jack") }
        if request.clockIn != nil { throw .usage("--transport jack and --clock-in are two masters: follow one") }
        if request.midiOut == .alsa { throw .usage("--transport jack paces the session by JACK's clock: use --midi-out jack, not alsa") }
        if request.replayedControls != nil { throw .usage("--transport jack follows a live transport; a replay plays its log's own time") }
    }

    /// The transport client, before the session is built: its tempo and meter (with a
    /// timebase master) become the session's, as `--tempo` and `--meter` would.
    static func open(_ request: inout RunRequest) throws(SessionError) -> TransportSync? {
        guard request.transport != nil else { return nil }
        let sync = try TransportSync(environment: request.environment, quiet: request.isQuiet)
        let opening = sync.opening()
        var given: [(flag: String, value: String)] = []
        if let meter = opening.meter { given.append(("meter", meter)) }
        if let tempo = opening.tempo { given.append(("tempo", Format.plain((tempo * 100).rounded() / 100))) }
        for (flag, value) in given {
            request.overrides.flags[flag] = value
            // The log's session line too, so that a replay plays at the master's tempo and meter.
            if var replay = request.replay {
                var arguments = replay.arguments
                if let index = arguments.firstIndex(of: "--" + flag), index + 1 < arguments.count { arguments.removeSubrange(index...index + 1) }
                replay.arguments = arguments + ["--" + flag, value]
                request.replay = replay
            }
        }
        return sync
    }
}

/// `--link`: the live session joins an Ableton Link session (`LinkSync`): its tempo, bars and
/// start/stop; opened before the live ports, whose notes it places on Link's beats.
struct LinkOutput: SessionOutput {
    let flags = ["--link"]

    func isRequested(_ request: RunRequest) -> Bool { request.joinsLink }

    func validate(_ request: RunRequest) throws(SessionError) {
        guard request.joinsLink else { return }
        if !request.isLive { throw .usage("--link only applies with --live") }
        if request.clockIn != nil || request.transport != nil {
            throw .usage("--link and \(request.clockIn != nil ? "--clock-in" : "--transport") are two masters: follow one")
        }
        if request.midiOut == .alsa { throw .usage("--link places notes on Link's beats through JACK: use --midi-out jack, not alsa") }
    }

    func open(_ run: OutputRun, _ wiring: OutputWiring) throws(SessionError) {
        guard run.request.joinsLink else { return }
        let link = try LinkSync(plan: run.plan, quiet: run.request.isQuiet)
        wiring.master = link
        wiring.closesAtEnd(link.close)
    }
}

/// `--midi-out jack|alsa` (with `--connect`, `--clock-out`): each voice's notes on live MIDI
/// ports (`LiveMIDISink`); with JACK, the session is paced by the server's clock.
struct LivePortsOutput: SessionOutput {
    let flags = ["--midi-out", "--connect", "--clock-out", "--connect-clock"]

    func isRequested(_ request: RunRequest) -> Bool { request.midiOut != nil }

    func validate(_ request: RunRequest) throws(SessionError) {
        if request.midiOut != nil && !request.isLive { throw .usage("--midi-out only applies with --live") }
        if !request.connections.isEmpty && request.midiOut != .jack { throw .usage("--connect only applies with --midi-out jack") }
        if request.sendsClock && request.midiOut == nil { throw .usage("--clock-out needs --midi-out jack or alsa") }
        if request.connections.contains(where: \.isEmpty) { throw .usage("--connect needs a JACK port name, e.g. fluidsynth:midi_00") }
        if !request.clockConnections.isEmpty && (request.midiOut != .jack || !request.sendsClock) {
            throw .usage("--connect-clock only applies with --midi-out jack --clock-out")
        }
        if request.clockConnections.contains(where: \.isEmpty) { throw .usage("--connect-clock needs a JACK port name, e.g. a sequencer's midi_in") }
    }

    func open(_ run: OutputRun, _ wiring: OutputWiring) throws(SessionError) {
        guard let kind = run.request.midiOut else { return }
        let sink = try LiveMIDISink.open(kind, clock: run.request.sendsClock, connections: run.request.connections,
                                         clockConnections: run.request.clockConnections, follows: wiring.master ?? wiring.transport,
                                         plan: run.plan, environment: run.request.environment, stop: run.stop)
        wiring.liveMIDI = sink
        wiring.sinks.append(sink)
        wiring.controls.append(sink)
        wiring.failsWith { sink.failure }
    }
}

/// `--osc-out host:port` (every event as OSC, `OSCOutSink`) and `--osc-in [addr:]port` (OSC
/// controls coming in, `OSCControlSource`).
struct OSCOutput: SessionOutput {
    let flags = ["--osc-out", "--osc-in"]

    func isRequested(_ request: RunRequest) -> Bool { request.oscOut != nil || request.oscIn != nil }

    func validate(_ request: RunRequest) throws(SessionError) {
        for (flag, given) in [("--osc-out", request.oscOut != nil), ("--osc-in", request.oscIn != nil)] where given && !request.isLive {
            throw .usage("\(flag) only applies with --live")
        }
        // Before anything is built: port 0 (a port nobody is told) and a bad address are refused at once.
        if let listen = request.oscIn { try OSCControlSource.check(listen: listen) }
    }

    func open(_ run: OutputRun, _ wiring: OutputWiring) throws(SessionError) {
        if let target = run.request.oscOut {
            wiring.sinks.append(try OSCOutSink(target: target, plan: run.plan))
        }
        if let listen = run.request.oscIn {
            let source = try OSCControlSource(listen: listen, plan: run.plan)
            wiring.controls.append(source)
            wiring.closesAtEnd(source.close)
        }
    }
}

/// `--midi-in jack|alsa`: a controller or sequencer playing into JACK port `clumsy-in:midi_in`
/// (or ALSA sequencer port `Clumsy-in:midi_in`) steers the session as the plugin's MIDI in does (`MIDIInControlSource`).
struct MIDIInOutput: SessionOutput {
    let flags = ["--midi-in"]

    func isRequested(_ request: RunRequest) -> Bool { request.midiIn != nil }

    func validate(_ request: RunRequest) throws(SessionError) {
        guard let kind = request.midiIn else { return }
        if !request.isLive { throw .usage("--midi-in only applies with --live") }
        guard kind == "jack" || kind == "alsa" else {
            throw .usage("--midi-in \(Quote.text(kind)) is not accepted; expected jack or alsa\(Suggestion.didYouMean(kind, in: ["jack", "alsa"]))")
        }
    }

    func open(_ run: OutputRun, _ wiring: OutputWiring) throws(SessionError) {
        guard let kind = run.request.midiIn else { return }
        let source = try MIDIInControlSource(plan: run.plan, alsa: kind == "alsa", environment: run.request.environment)
        wiring.controls.append(source)
        wiring.failsWith { source.failure }
        wiring.closesAtEnd(source.close)
    }
}

/// The performance as readable lines on standard output (`TextPrinter`): when nothing else
/// is written and the run is neither quiet nor live.
struct TextViewOutput: SessionOutput {
    let flags: [String] = []

    func isRequested(_ request: RunRequest) -> Bool {
        !SessionOutputs.writesFiles(request) && !request.isQuiet && !request.isLive
    }

    func open(_ run: OutputRun, _ wiring: OutputWiring) throws(SessionError) {
        wiring.sinks.append(TextPrinter(output: run.standardOutput, plan: run.plan))
    }
}

/// The live status line on a terminal's standard error (`LiveStatus`), while playing live.
struct LiveStatusOutput: SessionOutput {
    let flags: [String] = []

    func isRequested(_ request: RunRequest) -> Bool { request.isLive && !request.isQuiet }

    func open(_ run: OutputRun, _ wiring: OutputWiring) throws(SessionError) {
        guard run.standardError.isTerminal else { return }
        wiring.sinks.append(LiveStatus(output: run.standardError, plan: run.plan))
    }
}
