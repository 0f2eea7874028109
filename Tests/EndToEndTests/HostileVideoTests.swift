// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

// Issue 19, findings 3, 4, 8 and 15: `--video` writes through the same OutputFile as every
// other output; stale temporaries are removed only when their owner is provably gone (its
// lock is free); a stop ends a stalled ffmpeg; small messages say what is really wrong.

/// The pids of `pid`'s children (every thread's), from /proc.
func childProcesses(of pid: Int32) -> [Int32] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.flatMap { task -> [Int32] in
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
        return text.split(separator: " ").compactMap { Int32($0) }
    }
}

/// The live (not zombie) processes whose process group is `group`.
func processes(inGroup group: Int32) -> [Int32] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return names.compactMap(Int32.init).filter { pid in
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 3 && fields[0] != "Z" && Int32(fields[2]) == group
    }
}

/// A directory holding a fake `ffmpeg` that never reads its input and never exits.
func stalledFFmpeg(in directory: TemporaryDirectory) throws -> String {
    let bin = directory.file("bin")
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    try "#!/bin/sh\nsleep 1000\n".write(toFile: bin + "/ffmpeg", atomically: false, encoding: .utf8)
    chmod(bin + "/ffmpeg", 0o755)
    return bin
}

/// A directory holding a fake `ffmpeg` that never reads its input and never exits, with a
/// second process in its group that is slow to die when killed: it has written 1 GiB of
/// memory, which the kernel unmaps before the process is gone.
func heavyStalledFFmpeg(in directory: TemporaryDirectory) throws -> String {
    let bin = directory.file("bin")
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    let script = "#!/bin/sh\npython3 -c 'import time; b = bytearray(b\"\\x01\") * (1 << 30); time.sleep(1000)' &\nsleep 1000\n"
    try script.write(toFile: bin + "/ffmpeg", atomically: false, encoding: .utf8)
    chmod(bin + "/ffmpeg", 0o755)
    return bin
}

/// Resident memory of `pid` in KiB (/proc/<pid>/status), 0 when unknown.
func residentKilobytes(_ pid: Int32) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
}

/// True when some process holds a lock on `path` (our own non-blocking `flock` is refused).
func isLocked(_ path: String) -> Bool {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return flock(fd, LOCK_EX | LOCK_NB) != 0
}

@Suite("Hostile video and temporaries (issue 19: 3, 4, 8, 15)", .serialized,
       .enabled(if: hasFFmpeg && hasSmallSoundFont, "needs ffmpeg and \(smallSoundFont)"))
struct HostileVideoTests {
    static let small = ["--soundfont", smallSoundFont, "--size", "64x64", "--quiet"]

    /// `small` for `--video`; without `--size` (which needs `--video`) for `--audio`.
    static func flags(for flag: String) -> [String] {
        flag == "--video" ? small : ["--soundfont", smallSoundFont, "--quiet"]
    }

    // MARK: 3. --video goes through OutputFile

    @Test("--video through a symbolic link writes the link's target; the link stays a link")
    func videoThroughSymlink() async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: directory.file("link.mp4"), withDestinationPath: "target.mp4")
        let result = try await CLI.run(["run", "--duration", "1", "--video", "link.mp4"] + Self.small, in: directory.path, timeout: 120)
        #expect(result.status == 0, "\(result)")
        let link = try? FileManager.default.destinationOfSymbolicLink(atPath: directory.file("link.mp4"))
        #expect(link == "target.mp4", "link.mp4 is no longer a link")
        let probe = try await Probe.of(directory.file("target.mp4"))
        #expect(probe.streams.map(\.codec_name).sorted() == ["aac", "h264"], "\(probe.streams)")
        #expect(directory.entries() == ["link.mp4", "target.mp4"], "left behind: \(directory.entries())")
    }

    @Test("--video into a FIFO writes the video into it; the FIFO stays a FIFO")
    func videoIntoFIFO() async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("tmp"), withIntermediateDirectories: true)
        let script = """
            mkfifo v.mp4
            cat v.mp4 > got.mp4 & reader=$!
            "$C" run --duration 1 --video v.mp4 --soundfont \(smallSoundFont) --size 64x64 --quiet; status=$?
            sleep 0.5; kill $reader 2>/dev/null
            test -p v.mp4 || echo "v.mp4 is no longer a FIFO"
            exit $status
            """
        let result = try await shell(script, in: directory.path, environment: ["TMPDIR": directory.file("tmp")], timeout: 120)
        #expect(result.status == 0 && result.stdout.isEmpty, "\(result)")
        let probe = try await Probe.of(directory.file("got.mp4"))
        #expect(probe.streams.map(\.codec_name).sorted() == ["aac", "h264"], "\(probe.streams)")
        #expect(directory.entries() == ["got.mp4", "tmp", "v.mp4"], "left behind: \(directory.entries())")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: directory.file("tmp"))) == [], "left in TMPDIR")
    }

    @Test("Links planted at the video's old temporary names (.v.mp4.<pid>.*) are not followed")
    func plantedLinksNotFollowed() async throws {
        let directory = try TemporaryDirectory()
        let suffixes = ["tmp.mp4", "video.mkv", "audio.wav"]
        for suffix in suffixes { try directory.write("victim-" + suffix, "precious\n") }
        // exec keeps the shell's pid, so $$ is the pid clumsy runs with.
        let script = "for s in \(suffixes.joined(separator: " ")); do ln -s victim-$s .v.mp4.$$.$s; done\n"
            + "exec \"$C\" run --duration 1 --video v.mp4 --soundfont \(smallSoundFont) --size 64x64 --quiet"
        let result = try await shell(script, in: directory.path, timeout: 120)
        #expect(result.status == 0, "\(result)")
        for suffix in suffixes {
            let text = String(decoding: bytes(of: directory.file("victim-" + suffix)) ?? [], as: UTF8.self)
            #expect(text == "precious\n", "victim-\(suffix) was written through a planted link")
        }
        let probe = try await Probe.of(directory.file("v.mp4"))
        #expect(probe.streams.count == 2, "\(probe.streams)")
    }

    @Test("After kill -9 during a video, the next run leaves nothing of it; ffmpeg's log was never a named file")
    func killNineLeavesNothing() async throws {
        let directory = try TemporaryDirectory()
        let scratch = directory.file("tmp")
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        var logs: [String] = []
        var groups: [Int32] = []
        let result = try await CLI.run(["run", "--duration", "600", "--video", "v.mp4"] + Self.small,
                                 environment: ["TMPDIR": scratch], in: directory.path, timeout: 60) { pid in
            // On a thread of its own: ffmpeg's descriptors are read while it runs, and the 600 s
            // video is done in about half a minute, before a watcher awaiting a busy pool resumed.
            (groups, logs) = await onOwnThread {
                let children = waitForChildren(of: pid)
                sleepThread(1.5)
                let logs = children.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\($0)/fd/2") }
                kill(pid, SIGKILL)
                return (children, logs)
            }
        }
        for group in groups { kill(-group, SIGKILL) }
        #expect(result.signalled && result.status == SIGKILL, "\(result)")
        #expect(!logs.isEmpty)
        for log in logs {
            #expect(log.hasSuffix("(deleted)") && !log.hasPrefix("/tmp/clumsy-ffmpeg"), "ffmpeg's stderr: \(log)")
        }
        let next = try await CLI.run(["run", "--duration", "1", "--midi", "m.mid", "--quiet"], in: directory.path)
        #expect(next.status == 0, "\(next)")
        #expect(directory.entries() == ["m.mid", "tmp"], "left behind: \(directory.entries())")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: scratch)) == [], "left in TMPDIR")
    }

    // MARK: 4. Stale temporaries: deleted only when their owner's lock is free

    @Test("A temporary locked by a live process of another PID namespace is kept; an unlocked one of a dead pid is removed")
    func lockedTemporaryKept() async throws {
        let directory = try TemporaryDirectory()
        // pid_max is at most 2^22: these pids exist in no namespace of ours.
        let locked = directory.file(".x.mid.clumsy-99999999-0123456789abcdef.tmp")
        let dead = directory.file(".y.mid.clumsy-99999998-fedcba9876543210.tmp")
        try "partial".write(toFile: dead, atomically: false, encoding: .utf8)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/bin/sh")
        holder.arguments = ["-c", "exec 9>>\"$1\"; flock -x 9; exec sleep 60", "sh", locked]
        try holder.run()
        defer { holder.terminate(); holder.waitUntilExit() }
        for _ in 0..<500 where !isLocked(locked) { await pause(0.01) }
        try #require(isLocked(locked), "the holder did not lock \(locked)")
        let result = try await CLI.run(["run", "--duration", "1", "--midi", "m.mid", "--quiet"], in: directory.path)
        #expect(result.status == 0, "\(result)")
        #expect(fileExists(locked), "a live run's temporary was deleted")
        #expect(!fileExists(dead), "a dead run's temporary was kept")
    }

    @Test("A temporary that vanished before the rename at a stop is reported, not passed over in silence")
    func vanishedTemporaryReported() async throws {
        let directory = try TemporaryDirectory()
        // Up to 30 s for the temporary to appear: a busy machine took over 5 s to start the run,
        // and a stop before it was made has nothing to report.
        let removed = RemovedFlag()
        let result = try await CLI.run(["run", "--duration", "604800", "--midi", "x.mid", "--quiet"], in: directory.path, timeout: 60) { pid in
            for _ in 0..<3000 where !removed.value {
                for name in directory.hiddenEntries() where name.hasPrefix(".x.mid.clumsy-") {
                    if unlink(directory.file(name)) == 0 { removed.value = true }
                }
                await pause(0.01)
            }
            await pause(0.3)
            kill(pid, SIGINT)
        }
        try #require(removed.value, "the run's temporary never appeared: \(result)")
        #expect(!result.timedOut && result.status == 130, "\(result)")
        #expect(result.stderr.contains("x.mid"), "no message: \(result)")
        #expect(!fileExists(directory.file("x.mid")))
    }

    // MARK: 8. A stop ends a stalled ffmpeg

    @Test("A stop ends an ffmpeg that never reads (blocked writing frames) within a second; no child is left",
          arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func stalledWhileWriting(signal number: Int32, status: Int32) async throws {
        try await stopStalled(duration: "600", signal: number, status: status)
    }

    @Test("A stop ends an ffmpeg that never exits (waited on at the end) within a second; no child is left")
    func stalledWhileWaiting() async throws {
        try await stopStalled(duration: "1", signal: SIGINT, status: 130)
    }

    /// Issue 44: with both cores busy, ffmpeg's process group was seen alive after Clumsy had
    /// exited: SIGKILL had reached it, the leader was reaped, and another member was still being
    /// torn down. One that takes a while to die (1 GiB to unmap) made it happen every time.
    @Test("A stop waits until every process of ffmpeg's group is gone, one slow to die included")
    func slowGroupMemberReaped() async throws {
        try await stopStalled(duration: "600", signal: SIGINT, status: 130, heavy: true)
    }

    private func stopStalled(duration: String, signal number: Int32, status: Int32, heavy: Bool = false) async throws {
        let directory = try TemporaryDirectory()
        let bin = try heavy ? heavyStalledFFmpeg(in: directory) : stalledFFmpeg(in: directory)
        var child: Int32 = 0
        var stopping = 0.0
        var leftover: [Int32] = []
        let result = try await CLI.run(["run", "--duration", duration, "--video", "v.mp4"] + Self.small,
                                 environment: ["PATH": bin + ":/usr/bin:/bin"], in: directory.path, timeout: 60) { pid in
            // On a thread of its own: the stop is timed, and ffmpeg's group looked at, the moment
            // Clumsy is gone, not when a watcher awaiting a busy pool resumed (seconds later).
            (child, stopping, leftover) = await onOwnThread { Self.stop(pid, signal: number, heavy: heavy) }
        }
        try #require(child > 0, "ffmpeg was not started: \(result)")
        #expect(!result.timedOut && result.status == status, "\(result)")
        // Clumsy gives ffmpeg 1 s, then kills its group and waits for it: 10 s is a hang guard.
        #expect(stopping < 10, "took \(stopping) s after the signal (1 s asked; 10 s allowed on a loaded machine)")
        #expect(leftover.isEmpty, "ffmpeg's process group outlived clumsy: \(leftover)")
        #expect(directory.entries() == ["bin"], "left behind: \(directory.entries())")
    }

    /// Stops the run `pid` whose fake ffmpeg stalls: its ffmpeg (0 if none was started), the
    /// seconds from the signal to the exit, and what was left of ffmpeg's group then. Blocks:
    /// a watcher's own thread only.
    private static func stop(_ pid: Int32, signal number: Int32, heavy: Bool) -> (child: Int32, stopping: Double, leftover: [Int32]) {
        let child = waitForChildren(of: pid).first ?? 0
        // Long enough for the 1 MB pipe to fill (or the 1 s session to end) on a busy machine.
        sleepThread(4.0)
        // The slow member has written its memory (a hang guard of 30 s).
        if heavy && child > 0 {
            blockUntil(timeout: 30, every: 0.05) { processes(inGroup: child).contains { residentKilobytes($0) > 900_000 } }
        }
        kill(pid, number)
        let stopping = secondsUntilExit(pid)
        let leftover = child > 0 ? processes(inGroup: child) : []
        // Never leave a hung run (or its fake ffmpeg) behind, whatever the binary does.
        if stopping >= 10 { kill(pid, SIGKILL) }
        if child > 0 { kill(-child, SIGKILL) }
        return (child, stopping, leftover)
    }

    // MARK: 15. Small messages

    @Test("A directory named ffmpeg on PATH is passed over: the next ffmpeg is used, or 69 when there is none")
    func ffmpegDirectoryOnPath() async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("bin/ffmpeg"), withIntermediateDirectories: true)
        let found = try await CLI.run(["run", "--duration", "1", "--video", "v.mp4"] + Self.small,
                                environment: ["PATH": directory.file("bin") + ":/usr/bin:/bin"], in: directory.path, timeout: 120)
        #expect(found.status == 0 && fileExists(directory.file("v.mp4")), "\(found)")
        let missing = try await CLI.run(["run", "--duration", "1", "--video", "w.mp4"] + Self.small,
                                  environment: ["PATH": directory.file("bin")], in: directory.path, timeout: 60)
        #expect(missing.status == 69 && missing.stderr.contains("apt-get install ffmpeg"), "\(missing)")
    }

    @Test("A missing $TMPDIR is named as the problem, not the FIFO", arguments: ["f.wav", "f.mp4"])
    func missingTemporaryDirectory(name: String) async throws {
        let directory = try TemporaryDirectory()
        #expect(mkfifo(directory.file(name), 0o644) == 0)
        let flag = name.hasSuffix(".wav") ? "--audio" : "--video"
        let missing = directory.file("no-such-tmp")
        let result = try await CLI.run(["run", "--duration", "1", flag, name] + Self.flags(for: flag),
                                 environment: ["TMPDIR": missing], in: directory.path, timeout: 60)
        #expect(result.status == 73, "\(result)")
        #expect(result.stderr.contains("TMPDIR") && result.stderr.contains("no-such-tmp"), "\(result.stderr)")
        #expect(directory.entries() == [name], "left behind: \(directory.entries())")
    }

    @Test("An output name that is only an extension is told it needs a name", arguments: [("--audio", ".wav"), ("--video", ".mp4")])
    func onlyAnExtension(flag: String, name: String) async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "--duration", "1", flag, name] + Self.flags(for: flag), in: directory.path, timeout: 60)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("needs a name") && !result.stderr.contains("must end in"), "\(result.stderr)")
        #expect(directory.entries().isEmpty, "written: \(directory.entries())")
    }
}

/// Whether the stop test's closure removed the run's temporary (read after the run has ended).
private final class RemovedFlag: @unchecked Sendable {
    var value = false
}
