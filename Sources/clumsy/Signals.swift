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
    }
}
