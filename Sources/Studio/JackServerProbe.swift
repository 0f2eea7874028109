// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CJack

/// Whether a JACK server answers, asked without starting one: a bare client (`clumsy-probe`,
/// no ports, never activated) opened and closed at once. For the live synthesizer's choice of
/// driver: JACK when another flag asks for JACK and a server runs, and a hint naming
/// `--audio-driver jack` when another driver could not start.
public enum JackServerProbe {
    /// True when the server `$JACK_DEFAULT_SERVER` (else `default`) answers.
    public static func answers() -> Bool {
        var status: Int32 = 0
        guard let client = clumsy_jack_open_bare("clumsy-probe", &status) else { return false }
        jack_client_close(client)
        return true
    }
}
