// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CJack

/// The errors every JACK client Clumsy opens can meet, worded once.
extension StudioError {
    /// No server answered when `purpose` ("--midi-in jack") opened a client: names the server,
    /// JACK's status word (when it set one), and how to start one.
    static func noJackServer(_ server: String, status: Int32, for purpose: String) -> StudioError {
        // The shim says -1 where libjack failed without a status bit: no word to show then.
        let word = status > 0 ? " (JACK status 0x\(String(status, radix: 16)))" : ""
        return .unavailable("no JACK server named \"\(server)\" is running for \(purpose)\(word); "
            + "start one, e.g. `jackd -d alsa` with a sound card "
            + "or `jackd --no-realtime -d dummy -r 48000 -p 256` without, "
            + "or set JACK_DEFAULT_SERVER to the server's name")
    }

    /// Every attempt to open `client` was deaf (`clumsy_jack_await_cycle`: the server never ran it).
    static func jackDeaf(_ client: String, server: String) -> StudioError {
        .unavailable("the JACK server \"\(server)\" ran no cycle of the client \(client) "
            + "in \(CLUMSY_JACK_OPEN_ATTEMPTS) attempts (its log says \"client = \(client) was not finished\"); "
            + "restart the server")
    }
}
