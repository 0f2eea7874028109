// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import FileOutput
import Text
#if canImport(Glibc)
import Glibc
#endif

/// One `clumsy run` of an item, started as a child of the batch.
///
/// Like ffmpeg under `--video` (see `FFmpegProcess` in Pictures), the child runs in its own
/// process group with default signal handling, so a Ctrl-C at the terminal reaches the batch
/// alone, which then ends every child (`kill`) and removes their unfinished items. Its stdin and
/// stdout are /dev/null; its stderr goes to `logPath`, quoted when it fails.
final class ChildProcess {
    let pid: pid_t
    private var isDone = false

    /// The running executable's own path (`/proc/self/exe` resolved), the program every child runs.
    static let executable: String = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return "/proc/self/exe" }
        return buffer.withUnsafeBytes { PathBytes.string(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }()

    /// Starts `executable arguments…` with stderr into the new file `logPath`.
    /// - Throws: `.unavailable` (69) when the child cannot be started.
    init(executable: String, arguments: [String], logPath: String) throws(SessionError) {
        let spawned = PathBytes.withCString(logPath) { log -> Result<pid_t, ChildSpawn.Failure> in
            ChildSpawn.spawn(executable, arguments, defaults: [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT]) { (actions: inout posix_spawn_file_actions_t) in
                posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
                posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
                posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            }
        }
        let child: pid_t
        switch spawned {
        case .success(let pid): child = pid
        case .failure(let error): throw .unavailable("cannot start \(Quote.text(executable)): \(error)")
        }
        pid = child
    }

    deinit {
        if !isDone { kill() }
    }

    /// The child's exit status if it has ended (reaped), nil while it runs: 0…255, or 128 + a signal.
    func poll() -> Int32? {
        guard !isDone else { return nil }
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, WNOHANG)
        guard reaped == pid else { return nil }
        isDone = true
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// Ends the child and its process group at once and reaps it.
    func kill() {
        guard !isDone else { return }
        ChildSpawn.kill(pid)
        isDone = true
    }

    /// The last lines of a child's stderr file, joined by " / ", or "".
    static func lastWords(of logPath: String) -> String {
        guard let bytes = try? FileBytes.read(logPath, what: "log") else { return "" }
        let lines = String(decoding: bytes.suffix(4096), as: UTF8.self).split(separator: "\n").suffix(3)
        return Quote.message(lines.joined(separator: " / "))
    }
}
