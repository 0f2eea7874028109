// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import FileOutput
import Session
#if canImport(Glibc)
import Glibc
#endif

/// What signals do to Clumsy.
///
/// SIGINT, SIGTERM, SIGHUP (a closed terminal) and SIGQUIT all ask the session to stop at
/// the next step: every requested file is finished (or, when that cannot be done, removed)
/// and the exit status is 128 + the signal (130, 143, 129, 131). They are installed with
/// `sigaction` *without* `SA_RESTART`, so a system call blocked on a FIFO or a stalled
/// reader returns `EINTR` and gives up (see `StopSignal`, the one flag they raise). SIGQUIT is taken from Swift's
/// backtracer, which would otherwise print "Program crashed" and carry on.
/// SIGPIPE is ignored (a closed stdout is seen as `EPIPE`, see `StandardStreams`), and so
/// is SIGXFSZ (a `ulimit -f` file size limit is then an `EFBIG` write error, like a full disk).
enum Signals {
    /// The signals that stop a session.
    static let stopping: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Installs the handlers and unblocks the stopping signals (a parent may have blocked them).
    static func install() {
        // Initialise the flag before a handler can run: a lazy global's first use is not
        // async-signal-safe.
        _ = StopSignal.process.isRaised
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { number in
            StopSignal.process.raise(number)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0  // no SA_RESTART: blocked calls are interrupted
        for number in stopping { sigaction(number, &action, nil) }
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        var set = sigset_t()
        sigemptyset(&set)
        for number in stopping { sigaddset(&set, number) }
        sigprocmask(SIG_UNBLOCK, &set, nil)
        watchBatchParent()
    }

    /// A child `clumsy run` of `clumsy batch` (which sets `CLUMSY_BATCH_PARENT` to its pid)
    /// stops as at SIGTERM when that parent is gone (a `kill -9`, an out-of-memory kill), so
    /// no orphan renders on. A thread looks every 0.2 s (Linux's `PR_SET_PDEATHSIG` cannot be
    /// set by posix_spawn, and `prctl` is variadic).
    static func watchBatchParent() {
        guard let text = getenv("CLUMSY_BATCH_PARENT"), let parent = Int32(String(cString: text)), parent > 1 else { return }
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { argument in
            let parent = Int32(Int(bitPattern: argument))
            while getppid() == parent { usleep(200_000) }
            StopSignal.process.raise(SIGTERM)
            return nil
        }, UnsafeMutableRawPointer(bitPattern: Int(parent)))
        if started == 0 { pthread_detach(thread) }
    }
}
