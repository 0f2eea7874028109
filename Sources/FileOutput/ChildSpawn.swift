// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts a child program the way Clumsy starts every child (ffmpeg under `--video`, each
/// `clumsy run` of a batch): in a process group of its own, so that a Ctrl-C at the terminal
/// reaches Clumsy alone (which then ends the child), with no signal blocked and `defaults` at
/// their default actions, and its arguments passed as their bytes (`PathBytes`).
public enum ChildSpawn {
    /// Why a child could not be started: an `errno`, and its words.
    public struct Failure: Error, CustomStringConvertible {
        public let code: Int32
        public init(code: Int32) { self.code = code }
        public var description: String { String(cString: strerror(code)) }
    }

    /// Spawns `executable arguments…` with the descriptors `files` sets up.
    /// - Returns: the child's pid, or the `errno` of the failure.
    public static func spawn(_ executable: String, _ arguments: [String], defaults signals: [Int32],
                             files: (inout posix_spawn_file_actions_t) -> Void) -> Result<pid_t, Failure> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        files(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in signals { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { PathBytes.withCString($0) { strdup($0) } } + [nil]
        defer { for p in argv { free(p) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, argv[0]!, &actions, &attributes, argv, environ)
        return status == 0 ? .success(child) : .failure(Failure(code: status))
    }

    /// Ends a child started by `spawn` and its process group at once (SIGKILL), and reaps it.
    public static func kill(_ pid: pid_t) {
        _ = Glibc.kill(-pid, SIGKILL)
        _ = Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
}
