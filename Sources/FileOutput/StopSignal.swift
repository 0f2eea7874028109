// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Synchronization

/// A request to stop, safe to raise from a signal handler (one atomic store).
///
/// The process has one: `StopSignal.process`, raised by the handler of SIGINT, SIGTERM, SIGHUP
/// and SIGQUIT and, with SIGPIPE's number, by a failed write to standard output. The
/// simulator checks it every step, readers of long files every chunk. Clumsy installs its
/// handlers without `SA_RESTART`, so a signal makes a blocked `open` (a FIFO without a reader)
/// or `write` (a stalled pipe) fail with `EINTR`; every loop in FileOutput retries `EINTR`
/// only while the flag is down, and once it is raised, writes to a descriptor that is not
/// writable within `writeGrace` fail too, so a stop never waits on a reader that went away.
public final class StopSignal: Sendable {
    private let signal = Atomic<Int32>(0)

    /// The process's stop flag (see the type's summary).
    public static let process = StopSignal()

    /// How long, in milliseconds, a write after a stop request may wait for its reader.
    public static let writeGrace: Int32 = 200

    /// A signal nobody has raised yet.
    public init() {}

    /// Records a stop request; the first signal number wins.
    public func raise(_ number: Int32) {
        _ = signal.compareExchange(expected: 0, desired: number, ordering: .relaxed)
    }

    /// The signal number that asked to stop, or 0.
    public var raised: Int32 { signal.load(ordering: .relaxed) }

    /// True once a stop was requested.
    public var isRaised: Bool { raised != 0 }
}
