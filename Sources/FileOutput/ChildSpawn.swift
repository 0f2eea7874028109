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

    /// Ends a child started by `spawn` and its process group at once (SIGKILL), reaps it, and
    /// waits until no other process of its group runs (`awaitGroup`): Clumsy never exits
    /// leaving a child of its own behind.
    public static func kill(_ pid: pid_t) {
        _ = Glibc.kill(-pid, SIGKILL)
        _ = Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        awaitGroup(pid)
    }

    /// Waits, at most `limit` seconds, until no process of the process group `group` is
    /// alive. A member that SIGKILL reached still runs until the kernel has torn it down (its
    /// memory unmapped, its files closed), which on a busy machine outlasts the reaping of its
    /// leader by far (issue 44: ffmpeg's group was seen alive after Clumsy had exited). Such
    /// members are not Clumsy's children (their parent was the leader): once dead they are
    /// zombies until init reaps them, and a zombie runs nothing, so it is not waited for.
    static func awaitGroup(_ group: pid_t, limit: Double = 5) {
        var waited = 0.0
        while Glibc.kill(-group, 0) == 0 && waited < limit && hasLiveMember(group) {
            _ = Glibc.kill(-group, SIGKILL)   // one that was being forked as the group was killed
            usleep(2_000)
            waited += 0.002
        }
    }

    /// True when some process of process group `group` is alive (not a zombie), by /proc.
    static func hasLiveMember(_ group: pid_t) -> Bool {
        guard let directory = opendir("/proc") else { return false }
        defer { closedir(directory) }
        var buffer = [UInt8](repeating: 0, count: 512)
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = Int32(name), let (state, processGroup) = stat(of: pid, buffer: &buffer) else { continue }
            if processGroup == group && state != UInt8(ascii: "Z") { return true }
        }
        return false
    }

    /// The state letter and process group of `pid` (/proc/<pid>/stat: "pid (comm) S ppid pgrp …").
    private static func stat(of pid: Int32, buffer: inout [UInt8]) -> (state: UInt8, group: Int32)? {
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0, let end = buffer[0..<count].lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = buffer[(end + 1)..<count].split(separator: UInt8(ascii: " "))
        guard fields.count > 2, let state = fields[0].first, let group = Int32(String(decoding: fields[2], as: UTF8.self)) else { return nil }
        return (state, group)
    }
}
