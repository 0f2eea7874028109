// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CALSA

/// What the sequencer output (`--midi-out alsa`) and input (`--midi-in alsa`, `--clock-in
/// alsa`) share: the sequencer opened under a client name, with a MIDI event coder (alsa-lib
/// uses one type to encode and to decode).
enum ALSASequencer {
    /// Opens the sequencer in `mode` (`SND_SEQ_OPEN_…`, with `flags` such as non-blocking),
    /// names the client, and makes a coder for messages of up to 16 bytes.
    /// - Throws: `.unavailable` naming `flag` ("--midi-out") when there is no sequencer.
    static func open(mode: Int32, flags: Int32, clientName: String, flag: String) throws(StudioError)
        -> (sequencer: OpaquePointer, coder: OpaquePointer) {
        clumsy_alsa_quiet()
        var handle: OpaquePointer?
        let opened = snd_seq_open(&handle, "default", mode, flags)
        guard opened >= 0, let handle else {
            let reason = String(cString: snd_strerror(opened))
            throw .unavailable("\(flag) alsa: the ALSA sequencer cannot be opened (\(reason)): "
                + "/dev/snd/seq is missing; load the snd-seq kernel module (`modprobe snd-seq`) or use \(flag) jack")
        }
        var coder: OpaquePointer?
        guard snd_midi_event_new(16, &coder) >= 0, let coder else {
            snd_seq_close(handle)
            throw .unavailable("\(flag) alsa: the ALSA MIDI event coder cannot be created")
        }
        snd_seq_set_client_name(handle, clientName)
        return (handle, coder)
    }
}
