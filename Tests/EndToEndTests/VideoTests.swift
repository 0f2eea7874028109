// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Pictures
import Presets
import Session
import Testing
import Text
import WorldDrawing
@testable import Engine
#if canImport(Glibc)
import Glibc
#endif

let hasFFmpeg = FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg")
    && FileManager.default.isExecutableFile(atPath: "/usr/bin/ffprobe")

/// What ffprobe says about a file's streams and container.
struct Probe: Decodable {
    // ffprobe's JSON names.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    struct Stream: Decodable {
        var codec_type: String
        var codec_name: String
        var width: Int?
        var height: Int?
        var r_frame_rate: String?
        var pix_fmt: String?
        var duration: String?
        var nb_frames: String?
    }
    struct Format: Decodable { var duration: String }
    var streams: [Stream]
    var format: Format

    static func of(_ path: String) async throws -> Probe {
        let result = try await CLI.run(["-v", "error", "-show_entries",
                                  "stream=codec_type,codec_name,width,height,r_frame_rate,pix_fmt,duration,nb_frames:format=duration",
                                  "-of", "json", path], executable: "/usr/bin/ffprobe")
        try #require(result.status == 0, "\(result)")
        return try JSONDecoder().decode(Probe.self, from: Data(result.stdout.utf8))
    }
}

/// Decodes a video's frames (optionally only the first `seconds`) to raw RGB24 with Debian's ffmpeg.
func decodedFrames(_ path: String, seconds: Double? = nil, in directory: TemporaryDirectory) async throws -> [UInt8] {
    let raw = directory.file(UUID().uuidString + ".rgb")
    var arguments = ["-v", "error", "-i", path, "-map", "0:v:0"]
    if let seconds { arguments += ["-t", String(seconds)] }
    arguments += ["-f", "rawvideo", "-pix_fmt", "rgb24", "-y", raw]
    let result = try await CLI.run(arguments, executable: "/usr/bin/ffmpeg", timeout: 120)
    try #require(result.status == 0, "\(result)")
    defer { unlink(raw) }
    return try #require(bytes(of: raw))
}

@Suite("Video", .enabled(if: hasFFmpeg && hasSmallSoundFont, "needs ffmpeg and \(smallSoundFont)"))
struct VideoTests {
    @Test("An .mp4 holds one H.264 yuv420p stream at the requested size and rate and one AAC stream, as long as the audio render within a frame")
    func probe() async throws {
        let directory = try TemporaryDirectory()
        let video = directory.file("v.mp4"), audio = directory.file("a.wav")
        let result = try await CLI.run(["run", "--duration", "3", "--video", video, "--audio", audio, "--soundfont", smallSoundFont,
                                  "--size", "640x360", "--fps", "25", "--quiet"], timeout: 120)
        try #require(result.status == 0, "\(result)")
        let probe = try await Probe.of(video)
        let videos = probe.streams.filter { $0.codec_type == "video" }
        let audios = probe.streams.filter { $0.codec_type == "audio" }
        try #require(videos.count == 1 && audios.count == 1, "streams: \(probe.streams)")
        let v = videos[0]
        #expect(v.codec_name == "h264" && v.pix_fmt == "yuv420p")
        #expect(v.width == 640 && v.height == 360)
        #expect(v.r_frame_rate == "25/1")
        #expect(audios[0].codec_name == "aac")
        // Both files come from one render: the video lasts as long as the audio (session + tail).
        let wav = try WAVFile(path: audio)
        let frames = try #require(v.nb_frames.flatMap(Int.init))
        let videoSeconds = Double(frames) / 25
        #expect(wav.duration > 3.5, "no tail? \(wav.duration) s")
        #expect(abs(videoSeconds - wav.duration) <= 1.0 / 25, "video \(videoSeconds) s, audio \(wav.duration) s")
        #expect(abs((Double(probe.format.duration) ?? 0) - wav.duration) <= 1.0 / 25 + 0.03, "container \(probe.format.duration) s")
        #expect(directory.entries() == ["a.wav", "v.mp4"], "left behind: \(directory.entries())")
    }

    @Test("With --video the --audio file is the same render as without it, byte for byte")
    func sameAudioRender() async throws {
        let directory = try TemporaryDirectory()
        let alone = directory.file("alone.wav"), withVideo = directory.file("with.wav")
        let r1 = try await CLI.run(["run", "--duration", "2", "--audio", alone, "--soundfont", smallSoundFont, "--quiet"], timeout: 120)
        let r2 = try await CLI.run(["run", "--duration", "2", "--audio", withVideo, "--video", directory.file("v.webm"),
                              "--size", "160x90", "--soundfont", smallSoundFont, "--quiet"], timeout: 120)
        try #require(r1.status == 0 && r2.status == 0, "\(r1)\n\(r2)")
        let a = try #require(bytes(of: alone)), b = try #require(bytes(of: withVideo))
        #expect(a.count > 100_000 && a == b, "the WAV written beside a video differs from the one written alone")
    }

    @Test("A key lights up in the frame of its note: the key's pixels brighten within one frame of the event log's t (when it sounds, not the hit)",
          arguments: [[], ["--quantize", "1/4", "--tempo", "60"]])
    func keyLightsOnItsFrame(timing: [String]) async throws {
        let directory = try TemporaryDirectory()
        let video = directory.file("v.mp4"), events = directory.file("e.jsonl")
        let (width, height, fps) = (480, 270, 30.0)
        let result = try await CLI.run(["run", "--duration", "4", "--seed", "1", "--video", video, "--events", events,
                                  "--soundfont", smallSoundFont, "--size", "\(width)x\(height)", "--quiet"] + timing, timeout: 120)
        try #require(result.status == 0, "\(result)")
        let log = try readEventLog(events)
        let frames = try await decodedFrames(video, seconds: 4, in: directory)
        let frameBytes = width * height * 3
        // Where each key is, from the same scene the video was drawn from.
        let configuration = try Configuration(preset: try PresetLibrary.load("default"), overrides: Overrides(seed: 1), duration: 4)
        let painter = WorldPainter(drawing: PlanDrawing.drawing(for: SessionPlan(configuration: configuration)),
                                   frame: Composition(width: width, height: height, withRoll: true).world)
        func brightness(frame: Int, key: Int) -> Double {
            // The key's left fifth (its label sits in the middle).
            let box = painter.pixelBox(ofKey: key - 1)
            var sum = 0.0, count = 0.0
            for y in Int(box.minY + 2)..<Int(box.maxY - 1) {
                for x in Int(box.minX + 2)..<Int(box.minX + 0.2 * box.width) {
                    let o = frame * frameBytes + (y * width + x) * 3
                    sum += Double(frames[o]) + Double(frames[o + 1]) + Double(frames[o + 2])
                    count += 3
                }
            }
            return sum / max(count, 1)
        }
        var checked = 0, delayed = 0
        for (index, event) in log.enumerated() where event.kind == "key" && event.t > 0.2 && event.t < 3.8 {
            let key = try #require(event.key)
            // Only hits on a key that has been dark for half a second.
            let earlier = log[..<index].last { $0.kind == "key" && $0.key == key }
            if let earlier, event.t - earlier.t < 0.5 { continue }
            let lit = Int((event.t * fps - 1e-6).rounded(.up))   // first frame at or after the hit
            #expect(Double(lit) / fps - event.t < 1 / fps)
            let before = brightness(frame: lit - 1, key: key), after = brightness(frame: lit, key: key)
            #expect(after - before > 40, "key \(key) sounding at \(event.t) s: brightness \(before) in frame \(lit - 1), \(after) in frame \(lit)")
            checked += 1
            // A note held back to its grid line: the key stays dark from the hit until then.
            let hit = try #require(event.hit)
            let hitFrame = Int((hit * fps - 1e-6).rounded(.up))
            if hitFrame < lit - 1 {
                #expect(brightness(frame: hitFrame, key: key) - brightness(frame: max(0, hitFrame - 1), key: key) < 10,
                        "key \(key) hit at \(hit) s, sounding at \(event.t) s, already lit in frame \(hitFrame)")
                delayed += 1
            }
        }
        #expect(checked >= 3, "too few isolated key hits to check: \(checked)")
        if !timing.isEmpty { #expect(delayed >= 2, "too few notes held back by the grid: \(delayed)") }
    }

    @Test("The same seed gives the same decoded frames; a .webm holds VP9 and Opus")
    func deterministicFrames() async throws {
        let directory = try TemporaryDirectory()
        func render(_ name: String, seed: Int) async throws -> [UInt8] {
            let path = directory.file(name)
            let result = try await CLI.run(["run", "--duration", "2", "--seed", String(seed), "--video", path, "--soundfont", smallSoundFont,
                                      "--size", "320x180", "--quiet"], timeout: 120)
            try #require(result.status == 0, "\(result)")
            return try await decodedFrames(path, in: directory)
        }
        let first = try await render("a.mp4", seed: 5), second = try await render("b.mp4", seed: 5)
        #expect(first.count > 320 * 180 * 3 * 60)
        #expect(first == second, "decoded frames differ between identical runs")
        let webm = try await render("c.webm", seed: 6)
        #expect(webm != first)
        let probe = try await Probe.of(directory.file("c.webm"))
        #expect(probe.streams.map(\.codec_name).sorted() == ["opus", "vp9"], "\(probe.streams)")
    }

    @Test("Bad video flags are refused before anything runs",
          arguments: [(["--size", "65x64"], "even"), (["--size", "32x32"], "64x64…3840x2160"), (["--fps", "0"], "--fps"),
                      (["--fps", "121"], "--fps"), (["--fps", "nan"], "--fps")])
    func badFlags(extra: [String], mentions: String) async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["run", "--duration", "1", "--video", directory.file("v.mp4")] + extra)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains(mentions), "\(result)")
        #expect(directory.entries().isEmpty)
    }

    @Test("Unknown container, --fps without --video, and --video with --live are usage errors")
    func badCombinations() async throws {
        let directory = try TemporaryDirectory()
        for arguments in [["--video", directory.file("v.avi")], ["--fps", "30"], ["--live", "--video", directory.file("v.mp4")]] {
            let result = try await CLI.run(["run", "--duration", "1"] + arguments)
            #expect(result.status == 64, "\(result)")
        }
        #expect(directory.entries().isEmpty)
    }

    @Test("--video naming another output (however spelled, through a link) or the preset is refused with 64 naming both, before anything is written")
    func videoOverAnotherFile() async throws {
        let directory = try TemporaryDirectory()
        let preset = directory.file("p.mp4")
        try Data(contentsOf: URL(fileURLWithPath: projectRoot + "/Presets/default.json")).write(to: URL(fileURLWithPath: preset))
        #expect(symlink("a.wav", directory.file("link.mp4")) == 0)
        let before = directory.entries()
        for (arguments, other) in [(["default", "--midi", "v.mp4", "--video", "./v.mp4"], "--midi"),
                                   (["default", "--audio", "a.wav", "--video", "link.mp4"], "--audio"),
                                   ([preset, "--video", preset], "the preset")] {
            let result = try await CLI.run(["run", "--duration", "1", "--size", "160x90"] + arguments, in: directory.path)
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.contains("--video") && result.stderr.contains(other), "\(result.stderr)")
            #expect(directory.entries() == before, "files left behind: \(directory.entries())")
        }
    }

    @Test("No ffmpeg on PATH: exit 69 naming the Debian package, and no file")
    func noFFmpeg() async throws {
        let directory = try TemporaryDirectory()
        let video = directory.file("v.mp4")
        let result = try await CLI.run(["run", "--duration", "1", "--video", video], environment: ["PATH": directory.path])
        #expect(result.status == 69, "\(result)")
        #expect(result.stderr.contains("apt-get install ffmpeg"), "\(result)")
        #expect(directory.entries().isEmpty)
    }

    @Test("An ffmpeg that dies half way: exit 74, no file under the requested name, no temporaries")
    func ffmpegDies() async throws {
        let directory = try TemporaryDirectory()
        let bin = directory.file("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: false)
        try directory.write("bin/ffmpeg", "#!/bin/sh\n/usr/bin/head -c 1000000 > /dev/null\necho 'fake ffmpeg gives up' >&2\nexit 1\n")
        chmod(bin + "/ffmpeg", 0o755)
        let video = directory.file("v.mp4")
        let result = try await CLI.run(["run", "--duration", "5", "--video", video, "--soundfont", smallSoundFont, "--size", "320x180"],
                                 environment: ["PATH": bin], timeout: 60)
        #expect(result.status == 74, "\(result)")
        #expect(result.stderr.contains("fake ffmpeg gives up"), "\(result)")
        #expect(!fileExists(video))
        #expect(directory.entries() == ["bin"], "left behind: \(directory.entries())")
    }

    @Test("SIGINT during a video: exit 130 and a valid, shorter video with sound")
    func interrupted() async throws {
        let directory = try TemporaryDirectory()
        let video = directory.file("v.mp4")
        // An hour, stopped a second after its ffmpeg has started, not timed from the launch:
        // the release build renders minutes of the session a second, and the video and its
        // sound are what was rendered by then. (Its sound's hidden ".v.mp4.audio.wav…" shows
        // only after half an hour of the session, a minute here: waiting for it made this test
        // stop a 2,000 s video that took two minutes to finish, four on a loaded machine.)
        let result = try await CLI.run(["run", "--duration", "3600", "--video", video, "--soundfont", smallSoundFont, "--size", "320x180"],
                                 timeout: 120) { pid in
            // On a thread of its own: the hour's video takes minutes, and a watcher awaiting a
            // busy pool resumed many seconds late (a whole 120 s set was missed so).
            await onOwnThread {
                _ = waitForChildren(of: pid, limit: 60)
                sleepThread(1)
                kill(pid, SIGINT)
            }
        }
        #expect(result.status == 130, "\(result)")
        let probe = try await Probe.of(video)
        #expect(probe.streams.map(\.codec_name).sorted() == ["aac", "h264"], "\(probe.streams)")
        let seconds = try #require(Double(probe.format.duration))
        #expect(seconds > 0.5 && seconds < 3600, "duration \(seconds) s")
        #expect(directory.entries() == ["v.mp4"], "left behind: \(directory.entries())")
    }
}
