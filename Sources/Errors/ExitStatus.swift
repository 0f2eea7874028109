// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// The exit statuses of `clumsy` and `clumsy batch`, and whether a scheduler should run the
/// same command again: the one table the help text and the Slurm and Kubernetes recipes of
/// docs/batch.md follow (a test holds them to it).
///
/// A rerun of a batch resumes (finished items are kept, checked by their sha256), so a retry
/// costs only the unfinished items; it is worth it when the cause may be gone next time (a
/// full disk, a preempted node, an item killed for memory), never when the same command must
/// fail the same way (a bad flag, preset or manifest, a missing input).
public struct ExitStatus: Sendable, Equatable {
    /// The process's exit status (128 + n for a process ended by signal n, as a shell and a
    /// container runtime report it).
    public let code: Int32
    /// What it means.
    public let meaning: String
    /// True when running the same command again may succeed.
    public let isRetryable: Bool

    public static let table: [ExitStatus] = [
        ExitStatus(code: 64, meaning: "a bad flag, setting or --vary, or an output that is an input", isRetryable: false),
        ExitStatus(code: 65, meaning: "a bad preset or item manifest line, or a batch whose files do not match its manifest", isRetryable: false),
        ExitStatus(code: 66, meaning: "an unknown preset, or an item manifest or batch that is not there", isRetryable: false),
        ExitStatus(code: 69, meaning: "a child clumsy run or the SoundFont cannot be used on this machine", isRetryable: false),
        ExitStatus(code: 70, meaning: "an item ended by a signal (the out-of-memory killer) or a crash", isRetryable: true),
        ExitStatus(code: 73, meaning: "an output that cannot be created, or a directory holding files that are not a batch's", isRetryable: false),
        ExitStatus(code: 74, meaning: "a write failed (a full disk, a shared file system gone)", isRetryable: true),
        ExitStatus(code: 130, meaning: "stopped by SIGINT", isRetryable: true),
        ExitStatus(code: 137, meaning: "killed by SIGKILL (the out-of-memory killer, a preemption's last word)", isRetryable: true),
        ExitStatus(code: 143, meaning: "stopped by SIGTERM (a preemption, a time limit)", isRetryable: true),
    ]

    /// The statuses worth a retry, ascending.
    public static var retryable: [Int32] { table.filter(\.isRetryable).map(\.code) }

    /// The statuses a retry cannot mend, ascending.
    public static var final: [Int32] { table.filter { !$0.isRetryable }.map(\.code) }

    /// One sentence for a command's help: which statuses to retry.
    public static var retryAdvice: String {
        "Worth retrying (a rerun resumes): " + retryable.map(String.init).joined(separator: ", ")
            + "; never: " + final.map(String.init).joined(separator: ", ") + "."
    }
}
