// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import FileOutput
#if canImport(Glibc)
import Glibc
#endif

/// The containers `--video` writes.
public enum VideoContainer: String, Sendable, CaseIterable {
    /// MP4 with H.264 (yuv420p) and AAC.
    case mp4
    /// WebM with VP9 (yuv420p) and Opus.
    case webm

    /// The container named by a file's extension (case-insensitive), or nil.
    public init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        self.init(rawValue: path[path.index(after: dot)...].lowercased())
    }

    /// ffmpeg's video codec arguments.
    var videoCodec: [String] {
        switch self {
        case .mp4: return ["-c:v", "libx264", "-preset", "ultrafast", "-crf", "20", "-pix_fmt", "yuv420p"]
        case .webm: return ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-row-mt", "1",
                            "-crf", "32", "-b:v", "0", "-pix_fmt", "yuv420p"]
        }
    }

    /// ffmpeg's audio codec and muxer arguments.
    var audioCodecAndFormat: [String] {
        switch self {
        case .mp4: return ["-c:a", "aac", "-b:a", "192k", "-f", "mp4", "-movflags", "+faststart"]
        case .webm: return ["-c:a", "libopus", "-b:a", "160k", "-ar", "48000", "-f", "webm"]
        }
    }
}

/// One run of Debian's `ffmpeg`, started with explicit arguments, optionally fed through a pipe.
///
/// The child runs in its own process group (a Ctrl-C at the terminal reaches Clumsy, which
/// then finishes the video, not ffmpeg), with default signal handling and nothing blocked.
/// Files are handed over open: `files[i]` is the child's descriptor 3 + i, named in its
/// arguments as `/proc/self/fd/<3 + i>` (`path(ofFile:)`), so ffmpeg writes and reads only
/// files Clumsy created, whatever appears at any name meanwhile. Its stderr goes to `log`
/// (a file without a name, emptied at the start), quoted in errors.
///
/// After a stop (`isStopped`) nothing waits on a stalled child: a write the child does not
/// take within `stallGrace`, or a child that uses no CPU for `stallGrace` while it is waited
/// for, ends the child's whole process group (SIGKILL) and fails.
final class FFmpegProcess {
    let pid: pid_t
    private(set) var input: Int32 = -1
    private let log: Int32
    private let isStopped: () -> Bool
    private var isDone = false
    /// How long a stalled child is waited for after a stop, in milliseconds.
    static let stallGrace = 300

    /// The name, in the child's arguments, of `files[index]`.
    static func path(ofFile index: Int) -> String { "/proc/self/fd/\(3 + index)" }

    /// Starts `executable arguments…`; with `feedsInput`, its stdin is a pipe from us.
    init(executable: String, arguments: [String], feedsInput: Bool, files: [Int32], log: Int32,
         isStopped: @escaping () -> Bool) throws(PictureError) {
        self.log = log
        self.isStopped = isStopped
        _ = ftruncate(log, 0)
        _ = lseek(log, 0, SEEK_SET)
        var fds: [Int32] = [-1, -1]
        if feedsInput {
            guard pipe(&fds) == 0 else {
                throw .encoderFailed("cannot create a pipe to ffmpeg: \(String(cString: strerror(errno)))")
            }
            _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
            // Bigger pipe (Linux's F_SETPIPE_SZ): fewer wake-ups per 3.7 MB frame (best effort).
            _ = fcntl(fds[1], 1031, 1 << 20)
            _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        }
        // Copies above every target number, so that no dup2 overwrites a source not yet handed on.
        let copies = files.map { fcntl($0, F_DUPFD_CLOEXEC, 64) }
        defer { for copy in copies where copy >= 0 { close(copy) } }
        let spawned: Result<pid_t, ChildSpawn.Failure> = copies.contains { $0 < 0 } ? .failure(.init(code: EMFILE))
            : ChildSpawn.spawn(executable, arguments, defaults: [SIGPIPE, SIGINT, SIGTERM]) { [fds, log] (actions: inout posix_spawn_file_actions_t) in
                if feedsInput {
                    posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
                } else {
                    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
                }
                posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
                posix_spawn_file_actions_adddup2(&actions, log, 2)
                for (index, copy) in copies.enumerated() { posix_spawn_file_actions_adddup2(&actions, copy, Int32(3 + index)) }
            }
        if feedsInput { close(fds[0]) }
        let child: pid_t
        switch spawned {
        case .success(let pid): child = pid
        case .failure(let error):
            if feedsInput { close(fds[1]) }
            throw .encoderFailed("cannot start \(executable): \(error)")
        }
        pid = child
        input = feedsInput ? fds[1] : -1
    }

    deinit {
        if !isDone { kill() }
    }

    /// Writes all of `bytes` to the child's stdin; a child that has gone away is an error, and
    /// so is one that takes nothing for `stallGrace` after a stop.
    func write(_ bytes: UnsafeRawBufferPointer) throws(PictureError) {
        var offset = 0
        var stalled = 0
        while offset < bytes.count {
            let written = Glibc.write(input, bytes.baseAddress! + offset, bytes.count - offset)
            if written > 0 {
                offset += written
                stalled = 0
                continue
            }
            if written < 0 && errno != EAGAIN && errno != EINTR {
                let reason = String(cString: strerror(errno))
                _ = wait()
                throw .encoderFailed("ffmpeg stopped taking frames (\(reason))\(lastWords())")
            }
            if isStopped() {
                if stalled >= Self.stallGrace { throw stop("took no frame") }
                stalled += 50
            }
            var entry = pollfd(fd: input, events: Int16(POLLOUT), revents: 0)
            _ = poll(&entry, 1, 50)
        }
    }

    /// Closes stdin and waits; a non-zero exit is an error quoting ffmpeg's last words.
    func finish() throws(PictureError) {
        if input >= 0 { close(input); input = -1 }
        guard let status = wait() else { throw stop("made no progress") }
        guard status == 0 else {
            throw .encoderFailed("ffmpeg failed (\(Self.describe(status)))\(lastWords())")
        }
    }

    /// Ends a child that stalled after a stop; the error to throw.
    private func stop(_ what: String) -> PictureError {
        kill()
        return .encoderFailed("ffmpeg \(what) for \(Self.stallGrace) ms after the stop signal, so it was ended and the video removed")
    }

    /// Stops the child and its process group at once and reaps it.
    func kill() {
        if input >= 0 { close(input); input = -1 }
        guard !isDone else { return }
        ChildSpawn.kill(pid)
        isDone = true
    }

    /// Reaps the child and returns its wait status; nil when, after a stop, it used no CPU
    /// for `stallGrace` (it is then still running: the caller ends it).
    private func wait() -> Int32? {
        if input >= 0 { close(input); input = -1 }
        var status: Int32 = 0
        var idle = 0
        var ticks = cpuTicks()
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid || (reaped < 0 && errno != EINTR) { break }
            usleep(10_000)
            guard isStopped() else { continue }
            let now = cpuTicks()
            idle = now == ticks ? idle + 10 : 0
            ticks = now
            if idle >= Self.stallGrace { return nil }
        }
        isDone = true
        return status
    }

    /// The child's user + system CPU time in clock ticks (/proc/<pid>/stat), or -1.
    private func cpuTicks() -> Int {
        guard let file = fopen("/proc/\(pid)/stat", "r") else { return -1 }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let n = fread(&buffer, 1, buffer.count, file)
        guard n > 0, let close = buffer[0..<n].lastIndex(of: UInt8(ascii: ")")) else { return -1 }
        let fields = buffer[(close + 1)..<n].split(separator: UInt8(ascii: " "))
        guard fields.count > 13 else { return -1 }
        let number = { (field: ArraySlice<UInt8>) in Int(String(decoding: field, as: UTF8.self)) ?? 0 }
        return number(fields[11]) + number(fields[12])   // utime and stime, fields 14 and 15
    }

    static func describe(_ status: Int32) -> String {
        let signal = status & 0x7F
        return signal == 0 ? "exit status \((status >> 8) & 0xFF)" : "killed by signal \(signal)"
    }

    /// The end of ffmpeg's stderr, as ": …" or "".
    private func lastWords() -> String {
        let size = Int(lseek(log, 0, SEEK_END))
        guard size > 0 else { return "" }
        let count = min(size, 16_384)
        var text = [UInt8](repeating: 0, count: count)
        let n = pread(log, &text, count, off_t(size - count))
        guard n > 0 else { return "" }
        let lines = String(decoding: text[0..<n], as: UTF8.self).split(separator: "\n").suffix(3)
        return lines.isEmpty ? "" : ": " + lines.joined(separator: " / ")
    }

    /// The first `name` found on `path` (a `PATH` value) that is an executable regular file
    /// (a directory of that name is passed over, as the shell does).
    static func locate(_ name: String, path: String?) -> String? {
        for directory in (path ?? "/usr/bin:/bin").split(separator: ":") where !directory.isEmpty {
            let candidate = directory + "/" + name
            var status = stat()
            guard PathBytes.withCString(candidate, { stat($0, &status) }) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            if PathBytes.withCString(candidate, { access($0, X_OK) }) == 0 { return candidate }
        }
        return nil
    }
}

/// Encodes raw frames to a video file through ffmpeg, then muxes in an audio file.
///
/// Frames, converted to yuv420p here, go to a first ffmpeg raw through a pipe and are encoded (H.264 or VP9,
/// yuv420p) into a scratch Matroska file; at the end a second ffmpeg copies that video
/// stream and encodes the audio (AAC or Opus) into the requested container. Every file is
/// handed over open (see `FFmpegProcess`): the caller creates them and owns them.
public final class VideoEncoder {
    /// The ffmpeg in use.
    public let ffmpeg: String
    /// Container of the final file.
    public let container: VideoContainer
    /// The scratch video-only file (a descriptor, read and written by ffmpeg).
    private let video: Int32
    /// Where both ffmpeg runs write their stderr.
    private let log: Int32
    private let isStopped: () -> Bool
    private var process: FFmpegProcess?
    /// Frames written so far.
    public private(set) var frameCount = 0

    /// Finds ffmpeg on `searchPath` (a `PATH` value) or fails naming the Debian package.
    public static func locateFFmpeg(searchPath: String?) throws(PictureError) -> String {
        guard let found = FFmpegProcess.locate("ffmpeg", path: searchPath) else {
            throw .programMissing("--video needs the ffmpeg program, which is not on PATH; install Debian's ffmpeg package: apt-get install ffmpeg")
        }
        return found
    }

    /// Starts ffmpeg encoding `width` × `height` frames at `fps` into the file open on `video`
    /// (empty, seekable), its stderr into `log`. After `isStopped` says so, a stalled ffmpeg is ended.
    public init(ffmpeg: String, container: VideoContainer, video: Int32, log: Int32, width: Int, height: Int, fps: Int,
                isStopped: @escaping () -> Bool) throws(PictureError) {
        self.ffmpeg = ffmpeg
        self.container = container
        self.video = video
        self.log = log
        self.isStopped = isStopped
        let arguments = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y",
                         "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(width)x\(height)", "-framerate", "\(fps)", "-i", "pipe:0",
                         "-an"] + container.videoCodec + ["-f", "matroska", "-truncate", "0", FFmpegProcess.path(ofFile: 0)]
        process = try FFmpegProcess(executable: ffmpeg, arguments: arguments, feedsInput: true, files: [video], log: log,
                                    isStopped: isStopped)
    }

    private var planes: [UInt8] = []

    /// Sends one frame (the canvas's pixels, converted to yuv420p here: ffmpeg's own
    /// conversion from bgra cost it as much CPU as the H.264 encoding, and the pipe carries
    /// 1.5 bytes a pixel instead of 4).
    public func write(_ canvas: Canvas) throws(PictureError) {
        guard let process else { throw .encoderFailed("the video encoder has already finished") }
        let size = canvas.width * canvas.height * 3 / 2
        if planes.count != size { planes = [UInt8](repeating: 0, count: size) }
        try canvas.withPixels { (bytes) throws(PictureError) in
            planes.withUnsafeMutableBufferPointer { out in
                Self.convertToYUV420(bgra: bytes, rowBytes: canvas.stride, width: canvas.width, height: canvas.height, into: out)
            }
        }
        let failure = planes.withUnsafeBytes { (bytes) -> PictureError? in
            do throws(PictureError) { try process.write(bytes); return nil } catch { return error }
        }
        if let failure { throw failure }
        frameCount += 1
    }

    /// BT.601 limited-range ("TV") Y, U, V planes from opaque BGRA pixels (what ffmpeg's
    /// swscale does for an untagged RGB input); chroma is the mean of each 2 × 2 block.
    /// Width and height must be even.
    static func convertToYUV420(bgra: UnsafeRawBufferPointer, rowBytes: Int, width: Int, height: Int,
                                into out: UnsafeMutableBufferPointer<UInt8>) {
        let src = bgra.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let y = out.baseAddress!
        let u = y + width * height
        let v = u + (width / 2) * (height / 2)
        for row in stride(from: 0, to: height, by: 2) {
            let top = src + row * rowBytes, bottom = top + rowBytes
            let yTop = y + row * width, yBottom = yTop + width
            let chroma = (row / 2) * (width / 2)
            for column in stride(from: 0, to: width, by: 2) {
                let a = top + 4 * column, b = bottom + 4 * column
                let b0 = Int32(a[0]), g0 = Int32(a[1]), r0 = Int32(a[2])
                let b1 = Int32(a[4]), g1 = Int32(a[5]), r1 = Int32(a[6])
                let b2 = Int32(b[0]), g2 = Int32(b[1]), r2 = Int32(b[2])
                let b3 = Int32(b[4]), g3 = Int32(b[5]), r3 = Int32(b[6])
                yTop[column] = UInt8(truncatingIfNeeded: ((66 * r0 + 129 * g0 + 25 * b0 + 128) >> 8) + 16)
                yTop[column + 1] = UInt8(truncatingIfNeeded: ((66 * r1 + 129 * g1 + 25 * b1 + 128) >> 8) + 16)
                yBottom[column] = UInt8(truncatingIfNeeded: ((66 * r2 + 129 * g2 + 25 * b2 + 128) >> 8) + 16)
                yBottom[column + 1] = UInt8(truncatingIfNeeded: ((66 * r3 + 129 * g3 + 25 * b3 + 128) >> 8) + 16)
                let r = r0 + r1 + r2 + r3, g = g0 + g1 + g2 + g3, bl = b0 + b1 + b2 + b3   // 4 × the means
                u[chroma + column / 2] = UInt8(truncatingIfNeeded: ((-38 * r - 74 * g + 112 * bl + 512) >> 10) + 128)
                v[chroma + column / 2] = UInt8(truncatingIfNeeded: ((112 * r - 94 * g - 18 * bl + 512) >> 10) + 128)
            }
        }
    }

    /// Ends the stream and waits for the encoder.
    public func finishVideo() throws(PictureError) {
        guard let process else { return }
        self.process = nil
        try process.finish()
    }

    /// Muxes the encoded video and the audio file open on `audio` into the file open on
    /// `output` (empty, seekable; copying the video stream).
    public func mux(audio: Int32, into output: Int32) throws(PictureError) {
        let arguments = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y",
                         "-i", FFmpegProcess.path(ofFile: 0), "-i", FFmpegProcess.path(ofFile: 1),
                         "-map", "0:v:0", "-map", "1:a:0", "-c:v", "copy"]
            + container.audioCodecAndFormat + ["-truncate", "0", FFmpegProcess.path(ofFile: 2)]
        let muxer = try FFmpegProcess(executable: ffmpeg, arguments: arguments, feedsInput: false, files: [video, audio, output],
                                      log: log, isStopped: isStopped)
        try muxer.finish()
    }

    /// Stops ffmpeg at once (the caller removes the files).
    public func abandon() {
        process?.kill()
        process = nil
    }
}
