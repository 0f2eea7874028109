// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

// The plugin's UI in a real host: jalv.gtk3 on an X server of the test's own (Xvfb) and a
// dummy JACK server, the transport rolled by jack_transport, the window read with
// ImageMagick's `import`. Runs with the JACK suite (make test's second phase). Every process
// started here is stopped here.

let jalvGtk = firstExecutable(["/usr/bin/jalv.gtk3"])
let xvfb = firstExecutable(["/usr/bin/Xvfb"])
let xdotool = firstExecutable(["/usr/bin/xdotool"])
let magickImport = firstExecutable(["/usr/bin/import"])

/// An X server of the test's own: Xvfb picks a free display (-displayfd) and says which.
final class VirtualDisplay {
    let server: Background
    let display: String

    init(directory: TemporaryDirectory) async throws {
        server = try Background(xvfb!, ["-displayfd", "1", "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                                environment: CLI.environment, output: directory.file("xvfb.log"))
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let number = server.output.split(separator: "\n").first(where: { !$0.isEmpty && $0.allSatisfy(\.isNumber) }) {
                display = ":" + number
                return
            }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        server.stop()
        throw JackNotStarted(log: "Xvfb gave no display: \(server.output)")
    }

    func stop() { server.stop() }
}

/// A screenshot's pixels (R, G, B bytes) read from ImageMagick's PPM.
struct Screenshot {
    var width: Int, height: Int
    var rgb: [UInt8]

    /// `import -window ID` of `display` as binary PPM (P6, maxval 255).
    static func take(window: String, display: String, into path: String) async throws -> Screenshot {
        let taken = try await CLI.run(["-window", window, "-depth", "8", "ppm:" + path], executable: magickImport!,
                                      environment: ["DISPLAY": display], timeout: 30)
        try #require(taken.status == 0, "\(taken)")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        // Header: "P6", width, height, 255, each followed by whitespace.
        var fields: [Int] = [], at = 2, field = ""
        while fields.count < 3 && at < bytes.count {
            let c = Character(UnicodeScalar(bytes[at]))
            if c.isNumber { field.append(c) } else if !field.isEmpty { fields.append(Int(field)!); field = "" }
            at += 1
        }
        try #require(fields.count == 3 && bytes.starts(with: Array("P6".utf8)), "not a PPM: \(path)")
        return Screenshot(width: fields[0], height: fields[1], rgb: Array(bytes[at...].prefix(3 * fields[0] * fields[1])))
    }

    /// The share of pixels not of the most common colour (the background).
    var drawnShare: Double {
        var counts: [Int: Int] = [:]
        for p in stride(from: 0, to: rgb.count - 2, by: 3) { counts[Int(rgb[p]) << 16 | Int(rgb[p + 1]) << 8 | Int(rgb[p + 2]), default: 0] += 1 }
        let background = counts.values.max() ?? 0
        return Double(width * height - background) / Double(max(1, width * height))
    }

    /// The bounding box (min x, min y, max x, max y) of the pixels of colour `rgb`, if any.
    func box(of colour: Int) -> (Int, Int, Int, Int)? {
        var found: (Int, Int, Int, Int)?
        for y in 0..<height {
            for x in 0..<width where pixel(x, y) == colour {
                found = found.map { (min($0.0, x), min($0.1, y), max($0.2, x), max($0.3, y)) } ?? (x, y, x, y)
            }
        }
        return found
    }

    /// How many pixels of colour `colour` lie in columns `xs` and rows `ys`.
    func count(_ colour: Int, xs: ClosedRange<Int>, ys: ClosedRange<Int>) -> Int {
        ys.clamped(to: 0...height - 1).reduce(0) { sum, y in sum + xs.clamped(to: 0...width - 1).filter { pixel($0, y) == colour }.count }
    }

    func pixel(_ x: Int, _ y: Int) -> Int {
        let p = 3 * (y * width + x)
        return Int(rgb[p]) << 16 | Int(rgb[p + 1]) << 8 | Int(rgb[p + 2])
    }

    /// Pixels that differ from `other`'s.
    func differing(from other: Screenshot) -> Int {
        guard other.rgb.count == rgb.count else { return width * height }
        return stride(from: 0, to: rgb.count - 2, by: 3).filter { rgb[$0..<$0 + 3] != other.rgb[$0..<$0 + 3] }.count
    }
}

@Suite("The plugin's UI in jalv.gtk3 under Xvfb", .serialized,
       .enabled(if: hasJack && jalvGtk != nil && xvfb != nil && xdotool != nil && magickImport != nil && jackTransport != nil,
                "needs jackd2, jalv, xvfb, xdotool and imagemagick (make deps)"))
struct PluginUITests {
    @Test("jalv.gtk3 opens the UI: the window shows the world, and two screenshots a second apart differ while the transport rolls")
    func windowShowsTheWorld() async throws {
        let harness = try await PluginHarness()
        let x = try await VirtualDisplay(directory: harness.directory)
        defer { x.stop() }
        let jack = try await JackServer(directory: harness.directory, period: 1024)
        defer { jack.stop() }
        var environment = jack.fullEnvironment
        environment["LV2_PATH"] = harness.directory.path
        environment["DISPLAY"] = x.display
        let host = try Background(jalvGtk!, ["-n", "clumsy-ui", "urn:clumsy:lv2"], environment: environment,
                                  output: harness.directory.file("jalv.log"))
        defer { host.stop() }
        let window = try await findWindow(named: "Clumsy", display: x.display)
        var shots: [Screenshot] = []
        let script = "(printf 'master\\nplay\\n'; sleep 6; echo stop; sleep 1; echo quit) | \(jackTransport!)"
        _ = try await CLI.run(["-c", script], executable: "/bin/sh", environment: jack.fullEnvironment, timeout: 40) { _ in
            try? await Task.sleep(nanoseconds: 2_500_000_000)
            for index in 0..<2 {
                if let shot = try? await Screenshot.take(window: window, display: x.display, into: harness.directory.file("ui\(index).ppm")) {
                    shots.append(shot)
                }
                try? await Task.sleep(nanoseconds: 1_000_000_000)
            }
        }
        try #require(shots.count == 2, "no screenshots of window \(window); jalv: \(host.output)")
        #expect(shots[0].width >= 300 && shots[0].height >= 200, "window \(shots[0].width)×\(shots[0].height)")
        #expect(shots[0].drawnShare > 0.2, "\(Int(shots[0].drawnShare * 100)) % of the window is not background")
        #expect(shots[1].differing(from: shots[0]) > 50, "the balls did not move between two screenshots a second apart")
        #expect(host.isRunning, "jalv.gtk3 ended: \(host.output)")
    }

    /// Palette.pianoArea and Palette.pianoBall (Sources/Pictures/Palette.swift).
    static let pianoArea = 0x1B2422, pianoBall = 0xF4F4F8

    @Test("A click in the piano area drops the ball there: the drop port moves, and the next frames draw the ball where the click was")
    func clickDropsABall() async throws {
        let harness = try await PluginHarness()
        let x = try await VirtualDisplay(directory: harness.directory)
        defer { x.stop() }
        let jack = try await JackServer(directory: harness.directory, period: 1024)
        defer { jack.stop() }
        var environment = jack.fullEnvironment
        environment["LV2_PATH"] = harness.directory.path
        environment["DISPLAY"] = x.display
        // One piano ball: the idlest, the one a click drops, is the only one.
        let host = try Background(jalvGtk!, ["-n", "clumsy-click", "-c", "balls=1", "urn:clumsy:lv2"], environment: environment,
                                  output: harness.directory.file("jalv.log"))
        defer { host.stop() }
        let window = try await findWindow(named: "Clumsy", display: x.display)
        var found: [String] = []
        let script = "(printf 'master\\nplay\\n'; sleep 8; echo stop; sleep 1; echo quit) | \(jackTransport!)"
        _ = try await CLI.run(["-c", script], executable: "/bin/sh", environment: jack.fullEnvironment, timeout: 40) { _ in
            found = await clickAndLook(window: window, display: x.display, in: harness.directory)
        }
        for problem in found { Issue.record("\(problem); jalv: \(host.output.suffix(2000))") }
    }

    /// Clicks near the top of the piano area, halfway across, and looks for the ball there.
    private func clickAndLook(window: String, display: String, in directory: TemporaryDirectory) async -> [String] {
        try? await Task.sleep(nanoseconds: 2_000_000_000)
        guard let before = try? await Screenshot.take(window: window, display: display, into: directory.file("before.ppm")),
              let area = before.box(of: Self.pianoArea) else { return ["no piano area in the window"] }
        let (clickX, clickY) = ((area.0 + area.2) / 2, area.1 + (area.3 - area.1) / 8)
        let clicked = try? await CLI.run(["mousemove", "--window", window, "\(clickX)", "\(clickY)", "click", "1"], executable: xdotool!,
                                         environment: ["DISPLAY": display], timeout: 10)
        guard clicked?.status == 0 else { return ["xdotool: \(String(describing: clicked))"] }
        try? await Task.sleep(nanoseconds: 150_000_000)
        guard let after = try? await Screenshot.take(window: window, display: display, into: directory.file("after.ppm")) else {
            return ["no screenshot after the click"]
        }
        // The ball falls from the top of the drop region (the upper half of the piano area):
        // within 0.2 s it is still in the upper half, in the clicked column.
        let xs = (clickX - 12)...(clickX + 12), ys = area.1...(area.1 + (area.3 - area.1) / 2)
        let (was, now) = (before.count(Self.pianoBall, xs: xs, ys: ys), after.count(Self.pianoBall, xs: xs, ys: ys))
        return now > 20 && now > was ? [] : ["after a click at (\(clickX), \(clickY)) the column holds \(now) ball pixels (\(was) before)"]
    }

    /// The id of the first window named `name` (xdotool), waited for up to 20 s.
    private func findWindow(named name: String, display: String) async throws -> String {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let found = try await CLI.run(["search", "--name", "^\(name)$"], executable: xdotool!, environment: ["DISPLAY": display], timeout: 5)
            if let id = found.stdoutLines.first, !id.isEmpty { return id }
            try await Task.sleep(nanoseconds: 200_000_000)
        }
        throw JackNotStarted(log: "no window named \(name)")
    }
}
