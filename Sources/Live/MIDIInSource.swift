// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Engine
import Errors
import MIDIWire
import Studio
import Text
import Theory
import Vocabulary
#if canImport(Glibc)
import Glibc
#endif

/// `--midi-in jack|alsa`: a controller or sequencer plays along, by the rules the LV2 plugin follows
/// (`HeldNotes`): a single note drops a piano ball, a chord of three or more held notes sets the
/// key whose tonic chord it is and plays that chord. Each becomes a control (`drop`, `key`,
/// `chord 1`) at the next step, logged like an OSC control, so the set replays exactly.
///
/// When the JACK server (or the ALSA sequencer) behind the port goes away, the session ends
/// there, as under every other live mode: its files are completed and the runner exits with
/// `failure` (74, naming the server).
public final class MIDIInControlSource: ControlSource {
    private let input: any LiveMIDIInput
    private var held = HeldNotes()
    private var pending: [Control] = []
    private let plan: SessionPlan
    private var saidRejected: Set<String> = []
    /// Set when the server or sequencer went away during the session.
    public private(set) var failure: SessionError?

    /// The input port's full name (`clumsy-in:midi_in` on JACK, `Clumsy-in:midi_in` on ALSA).
    public var portName: String { input.portName }
    private let what: String

    /// Opens the input for `plan`: an ALSA sequencer port with `alsa`, else a JACK port on the
    /// server the environment names.
    public init(plan: SessionPlan, alsa: Bool = false, environment: [String: String]) throws(SessionError) {
        self.plan = plan
        what = alsa ? "the ALSA sequencer" : StudioError.jackServer(environment: environment)
        do {
            input = alsa ? try ALSASequencerInput(clientName: "Clumsy-in", port: "midi_in", flag: "--midi-in")
                : try JackMIDIInput(environment: environment)
        } catch {
            throw SessionError(error)
        }
    }

    /// Stops listening.
    public func close() { input.close() }

    public func poll(step: Int64, into controls: inout [Control]) -> Bool {
        if failure == nil && input.isGone { failure = SessionError(StudioError.wentAway(what)) }
        guard failure == nil else { return false }
        for message in input.take() {
            switch held.receive(message) {
            case nil:
                break
            case .drop:
                pending.append(.lift)
            case .key(let tonic, let scale):
                let key = Control.key(Key(tonic: tonic, scale: scale))
                if let rejection = plan.rejection(of: key) {
                    if saidRejected.insert(rejection.description).inserted { say("MIDI in: \(rejection.description); ignored") }
                } else {
                    pending += [key, .chord(1)]
                }
            }
        }
        // OSC's per-step budget: a chord flood spreads over steps instead of stalling one.
        let count = OSCControlSource.affordable(pending, pianoBalls: plan.world.pianoStarts.count)
        controls += pending[0..<count]
        pending.removeFirst(count)
        if pending.count > OSCControlSource.capacity { pending.removeLast(pending.count - OSCControlSource.capacity) }
        return true
    }

    private func say(_ text: String) {
        let line = "clumsy: " + Quote.text(text, limit: 5 * Quote.defaultLimit) + "\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    }
}
