// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import ArgumentParser
import Errors
import EventLog
import Session
#if canImport(Glibc)
import Glibc
#endif

/// Lost standard output is an error, never silence.
///
/// - A write to stdout that fails (`/dev/full`, a closed descriptor, an I/O error) ends the
///   command with 74 and one line on stderr.
/// - A reader that went away (`EPIPE`, as with `| head -1`) stops a running session at once;
///   its files are finished and the exit status is 141 (128 + SIGPIPE, what a shell shows for
///   a process ended by SIGPIPE), with nothing on stderr.
/// - A standard descriptor closed at start (`>&-`) is reopened on /dev/null (stdin) or
///   /dev/full (stdout, stderr), so no output file can take its number and receive the text,
///   and writing there fails as above.
/// - `--help` and `--version` are printed through the same path (not ArgumentParser's
///   `print`), so their failure is seen too.
enum StandardStreams {
    /// Called first thing in `main`.
    static func prepare() {
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let replacement = descriptor == 0 ? open("/dev/null", O_RDONLY) : open("/dev/full", O_WRONLY)
            if replacement >= 0 && replacement != descriptor {
                dup2(replacement, descriptor)
                close(replacement)
            }
            if descriptor == 1 { TerminalOutput.standardOutput.markFailed(EBADF) }
        }
        TerminalOutput.standardOutput.brokenPipeStop = stopSignal
    }

    /// Flushes stdout after a command; a failure exits 74 (141 for a vanished reader).
    static func finish() throws {
        let out = TerminalOutput.standardOutput
        out.flush()
        guard let code = out.failure else { return }
        if code == EPIPE { throw ExitCode(141) }
        report(code)
        throw ExitCode(74)
    }

    nonisolated(unsafe) private static var hasReported = false

    /// Notes that `error` (already printed) said what `finish()` would say of standard output.
    static func noteReported(_ error: SessionError) {
        if error == .io(SessionRunner.standardOutputClosed) { hasReported = true }
    }

    private static func report(_ code: Int32) {
        guard !hasReported else { return }
        hasReported = true
        let line = code == EBADF ? SessionRunner.standardOutputClosed : "cannot write to standard output: " + String(cString: strerror(code))
        let err = TerminalOutput.standardError
        err.write("clumsy: error: \(line)\n")
        err.flush()
    }
}
