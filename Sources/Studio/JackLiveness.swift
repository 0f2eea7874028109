// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

#if canImport(Glibc)
import Glibc
#endif

/// Whether the JACK server behind one of Clumsy's clients is still there, told the same way
/// for every client (`--midi-out`, `--clock-in`, `--midi-in`, `--transport`, the live
/// synthesizer's watch): gone when JACK called the client's shutdown callback (`jack_on_shutdown`,
/// the shim's `is_shut_down`), stalled when the server ran no process cycle of it for
/// `stallTimeout` seconds (stopped with SIGSTOP, hung: it would never call that callback).
public struct JackLiveness: Sendable {
    /// Seconds without a single process cycle after which the server counts as stalled.
    public static let stallTimeout = 2.0

    /// True once the server ran no cycle for `stallTimeout`.
    public private(set) var isStalled = false
    private var lastCycles: UInt64 = 0
    private var lastCycleSeen = 0.0

    public init() {}

    /// Takes the client's cycle count now; marks the server stalled after `stallTimeout`
    /// without a new cycle. - Returns: `isStalled`.
    @discardableResult
    public mutating func check(cycles: UInt64) -> Bool {
        let now = Self.monotonicSeconds()
        if cycles != lastCycles || lastCycleSeen == 0 {
            lastCycles = cycles
            lastCycleSeen = now
        } else if now - lastCycleSeen > Self.stallTimeout {
            isStalled = true
        }
        return isStalled
    }

    /// Marks the server stalled (a caller that waited `stallTimeout` for a cycle itself).
    public mutating func markStalled() { isStalled = true }

    /// CLOCK_MONOTONIC, seconds.
    static func monotonicSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
    }
}

extension StudioError {
    /// The server `what` names ("the JACK server \"default\"", "the ALSA sequencer") went away
    /// during the session: the one wording of every live mode's exit 74.
    public static func wentAway(_ what: String) -> StudioError {
        .io("\(what) went away (or stopped running) during the session; the files hold everything up to then")
    }

    /// "the JACK server \"default\"": the server `$JACK_DEFAULT_SERVER` names, else `default`.
    public static func jackServer(environment: [String: String]) -> String {
        "the JACK server \"\(JackMIDIOutput.serverName(environment: environment))\""
    }
}
