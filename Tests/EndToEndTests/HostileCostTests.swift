// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

// Issue 19, "Hostile use, round 3": findings 10 (an OSC drop flood), 11 (a trace of any length)
// and 16 (a five-key preset). Each test failed on the binary before its fix.

/// `default` with a ninth chord on degree 1 and the keys left to the chords: five keys.
func fiveKeyPreset(in directory: TemporaryDirectory) throws -> String {
    let data = try Data(contentsOf: URL(fileURLWithPath: projectRoot + "/Presets/default.json"))
    var preset = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    var bass = try #require(preset["bass"] as? [String: Any])
    bass["chords"] = ["1": "ninth"]
    preset["bass"] = bass
    var keys = try #require(preset["keys"] as? [String: Any])
    keys.removeValue(forKey: "tones")
    preset["keys"] = keys
    preset["name"] = "five-keys"
    let text = String(decoding: try JSONSerialization.data(withJSONObject: preset, options: [.sortedKeys]), as: UTF8.self)
    return try directory.write("five-keys.json", text)
}

/// One OSC message with no arguments (path, then the type tag ","), each padded to 4 bytes.
func oscMessage(_ path: String) -> [UInt8] {
    func padded(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8) + [0]
        while bytes.count % 4 != 0 { bytes.append(0) }
        return bytes
    }
    return padded(path) + padded(",")
}

/// Sends `packet` `count` times to 127.0.0.1:`port` over UDP.
func sendUDP(_ packet: [UInt8], count: Int, port: Int) {
    let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
    guard fd >= 0 else { return }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    for _ in 0..<count {
        _ = packet.withUnsafeBytes { bytes in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, bytes.baseAddress, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }
}

@Suite("Hostile use, round 3: what a control, a trace or a chord costs", .serialized)
struct HostileCostTests {
    @Test("A five-key preset (a ninth chord in bass.chords) draws, its keys named root … 9th",
          .enabled(if: hasSmallSoundFont, "needs \(smallSoundFont)"))
    func fiveKeysDraw() async throws {
        let directory = try TemporaryDirectory()
        let preset = try fiveKeyPreset(in: directory)
        let drawn = try await CLI.run(["draw", preset, "-o", "five.svg"], in: directory.path)
        #expect(drawn.status == 0 && !drawn.signalled, "\(drawn)")
        let svg = String(decoding: bytes(of: directory.file("five.svg")) ?? [], as: UTF8.self)
        #expect(svg.hasPrefix("<?xml") && svg.contains("</svg>"), "no SVG written")
    }

    @Test("A five-key preset films (--video)", .enabled(if: hasFFmpeg && hasSmallSoundFont, "needs ffmpeg and \(smallSoundFont)"))
    func fiveKeysFilm() async throws {
        let directory = try TemporaryDirectory()
        let preset = try fiveKeyPreset(in: directory)
        let filmed = try await CLI.run(["run", preset, "--duration", "1", "--video", "five.mp4", "--soundfont", smallSoundFont, "--quiet"],
                                 in: directory.path, timeout: 120)
        #expect(filmed.status == 0 && !filmed.signalled, "\(filmed)")
        #expect((bytes(of: directory.file("five.mp4"))?.count ?? 0) > 1000, "no video written")
    }

    @Test("A trace of 1000 balls stays small: under 16 MB of SVG and at most 50 000 hit dots, the legend counting every hit")
    func traceIsBounded() async throws {
        let directory = try TemporaryDirectory()
        let result = try await CLI.run(["draw", "swarm", "--trace", "30", "-o", "t.svg"], in: directory.path, timeout: 240)
        try #require(result.status == 0, "\(result)")
        let size = bytes(of: directory.file("t.svg"))?.count ?? 0
        #expect(size > 100_000 && size < 16_000_000, "the trace's SVG is \(size) bytes")
        // The swarm's keys are struck tens of thousands of times in 30 s; the legend says how often.
        let svg = String(decoding: bytes(of: directory.file("t.svg")) ?? [], as: UTF8.self)
        #expect(svg.components(separatedBy: "<path").count < 60_000, "too many shapes")
    }

    @Test("A flood of /clumsy/drop into a 1000-ball live session is spread over steps: one drop of 1000 balls per step, none lost",
          .enabled(if: hasSmallSoundFont, "needs \(smallSoundFont)"))
    func dropFloodIsBudgeted() async throws {
        let directory = try TemporaryDirectory()
        let port = 41_300 + Int(getpid() % 20_000)
        let sent = 200
        let result = try await CLI.run(["run", "swarm", "--live", "--audio-driver", "file", "--audio", "live.wav", "--soundfont", smallSoundFont,
                                  "--osc-in", "\(port)", "--duration", "4", "--events", "live.jsonl", "--quiet"],
                                 in: directory.path, timeout: 60) { _ in
            // On a thread of its own: the session lasts 4 s, and a watcher awaiting a busy pool
            // could send the flood after its end, when no drop is read.
            await onOwnThread {
                blockUntil(timeout: 60) { isUDPPortBound(port) }
                sendUDP(oscMessage("/clumsy/drop"), count: sent, port: port)
            }
        }
        try #require(result.status == 0 && !result.signalled, "\(result)")
        let drops = try liveLog(directory.file("live.jsonl"))
            .filter { $0.kind == "control" && $0.control == "drop" }
            .compactMap { $0.step.map { Int($0) } }
        #expect(drops.count == sent, "\(drops.count) of \(sent) drops applied")
        let perStep = Dictionary(grouping: drops, by: { $0 }).values.map(\.count).max() ?? 0
        #expect(perStep == 1, "up to \(perStep) drops of 1000 balls in one step")
    }
}
