// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import MIDIWire
import Performance
import Vocabulary

extension NoteRouter {
    /// The one translation of the session's events into channel messages, which every output
    /// that plays or writes MIDI reads (the MIDI file, the mix and the live synth, JACK and ALSA
    /// ports, the LV2 plugin): a note on the channel its voice gives it (`channel(for:)`), a
    /// voice's controller on each of the voice's channels. Other events (chords, live
    /// controls, the ending) are no channel messages; each output reads those itself.
    ///
    /// `body` gets each message with its time (seconds) and its voice; with `voice`, only that
    /// voice's messages (a stem). Allocation-free.
    public mutating func forEachMessage<E: Error>(of event: SessionEvent, only voice: VoiceID? = nil,
                                                 _ body: (_ time: Double, _ voice: VoiceID, _ message: MIDIBytes) throws(E) -> Void) throws(E) {
        switch event {
        case .note(let note):
            guard voice == nil || note.voice == voice else { return }
            let channel = channel(for: note)
            try body(note.time, note.voice, note.kind == .on
                ? .noteOn(channel: channel, note: note.note, velocity: note.velocity)
                : .noteOff(channel: channel, note: note.note))
        case .control(let time, let controlled, let controller, let value):
            guard voice == nil || controlled == voice else { return }
            for channel in channels(of: controlled) {
                try body(time, controlled, .controlChange(channel: channel.channel, controller: controller, value: value))
            }
        default:
            return
        }
    }
}
