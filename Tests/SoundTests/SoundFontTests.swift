// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import TestSupport
import Testing
@testable import Sound

@Suite("SoundFont checks and lookup", .serialized)
final class SoundFontTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory(prefix: "clumsy-sound-tests")
    }

    func path(_ name: String) -> String { directory.file(name) }

    func load(_ soundFont: String) throws(SoundError) {
        _ = try Sampler(configuration: SamplerConfiguration(soundFont: soundFont))
    }

    @Test("a missing SoundFont is a clear error")
    func missing() {
        let missing = path("absent.sf2")
        #expect(throws: SoundError.soundFontNotFound(path: missing, source: "SamplerConfiguration.soundFont")) {
            try load(missing)
        }
    }

    @Test("a truncated SoundFont is detected from its RIFF header", .enabled(if: hasTestSoundFont))
    func truncated() throws {
        let copy = path("truncated.sf2")
        let handle = try #require(FileHandle(forReadingAtPath: testSoundFont))
        let head = handle.readData(ofLength: 1_000)
        try handle.close()
        try head.write(to: URL(fileURLWithPath: copy))
        let expected = Int64((try FileManager.default.attributesOfItem(atPath: testSoundFont)[.size] as? NSNumber)?.int64Value ?? 0)
        #expect(throws: SoundError.soundFontTruncated(path: copy, expectedBytes: expected, actualBytes: 1_000)) {
            try load(copy)
        }
    }

    @Test("a text file named .sf2 is not a SoundFont")
    func textFile() throws {
        let fake = path("notes.sf2")
        try "These are not samples.\n".write(toFile: fake, atomically: true, encoding: .utf8)
        do {
            try load(fake)
            Issue.record("loading a text file succeeded")
        } catch {
            guard case .notASoundFont(let errorPath, let reason) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(errorPath == fake)
            #expect(reason.contains("\"These ar\""))
            #expect(error.description.contains("fluid-soundfont-gm"))
        }
    }

    @Test("a directory, an empty file and a RIFF file of another type are rejected")
    func otherNonSoundFonts() throws {
        #expect(throws: SoundError.soundFontUnreadable(path: directory.path, reason: "it is a directory")) {
            try load(directory.path)
        }
        let empty = path("empty.sf2")
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        #expect(throws: SoundError.notASoundFont(path: empty, reason: "it has only 0 bytes")) { try load(empty) }
        let wave = path("sound.sf2")
        var bytes = Array("RIFF".utf8) + [4, 0, 0, 0] + Array("WAVE".utf8)
        bytes += [0, 0, 0, 0]
        _ = FileManager.default.createFile(atPath: wave, contents: Data(bytes))
        #expect(throws: SoundError.notASoundFont(path: wave, reason: "it is a RIFF file of type \"WAVE\", not \"sfbk\"")) {
            try load(wave)
        }
    }

    @Test("a file with a SoundFont header but garbage inside fails in FluidSynth, whose messages go into the error, not to stdout/stderr")
    func garbageInside() throws {
        let fake = path("garbage.sf2")
        let body = [UInt8](repeating: 0x5A, count: 4_000)
        let size = UInt32(4 + body.count)
        var bytes = Array("RIFF".utf8)
        bytes += [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24)]
        bytes += Array("sfbk".utf8) + body
        _ = FileManager.default.createFile(atPath: fake, contents: Data(bytes))
        var caught: SoundError?
        let printed = capturingStandardOutputAndError {
            do {
                try load(fake)
            } catch {
                caught = error as? SoundError
            }
        }
        guard case .soundFontLoadFailed(let errorPath, let messages)? = caught else {
            Issue.record("expected soundFontLoadFailed, got \(String(describing: caught))")
            return
        }
        #expect(errorPath == fake)
        #expect(!messages.isEmpty, "FluidSynth's own complaint is kept")
        #expect(!printed.contains("fluidsynth"), "printed: \(printed)")
    }

    @Test("resolve: the flag wins, then the environment, then the preset, then the standard locations", .enabled(if: hasTestSoundFont))
    func resolveOrder() throws {
        let environment = [SoundFontLocator.environmentVariable: testSoundFont]
        #expect(try SoundFontLocator.resolve(explicit: testSoundFont, environment: [:], preset: "/nope.sf2") == testSoundFont)
        #expect(try SoundFontLocator.resolve(explicit: nil, environment: environment, preset: "/nope.sf2") == testSoundFont)
        #expect(try SoundFontLocator.resolve(explicit: "", environment: [:], preset: testSoundFont) == testSoundFont)
        let fallback = try SoundFontLocator.resolve(explicit: nil, environment: [:], preset: nil)
        #expect(fallback == SoundFontLocator.standardLocations.first { FileManager.default.fileExists(atPath: $0) })
    }

    @Test("resolve: a given path that does not exist is an error, never a silent fall-back")
    func resolveMissing() {
        #expect(throws: SoundError.soundFontNotFound(path: "/nope/a.sf2", source: "--soundfont")) {
            try SoundFontLocator.resolve(explicit: "/nope/a.sf2", environment: [:], preset: nil)
        }
        #expect(throws: SoundError.soundFontNotFound(path: "/nope/b.sf2", source: "CLUMSY_SOUNDFONT")) {
            try SoundFontLocator.resolve(explicit: nil, environment: ["CLUMSY_SOUNDFONT": "/nope/b.sf2"], preset: nil)
        }
        #expect(throws: SoundError.soundFontNotFound(path: "/nope/c.sf2", source: "the preset's soundFont")) {
            try SoundFontLocator.resolve(explicit: nil, environment: [:], preset: "/nope/c.sf2")
        }
    }

    @Test("the 'nothing found' error lists every path tried and names the Debian package")
    func noSoundFontMessage() {
        let error = SoundError.noSoundFont(tried: SoundFontLocator.standardLocations)
        for location in SoundFontLocator.standardLocations {
            #expect(error.description.contains(location))
        }
        #expect(error.description.contains("fluid-soundfont-gm"))
        #expect(SoundFontLocator.standardLocations.first == "/usr/share/sounds/sf2/FluidR3_GM.sf2")
    }

    @Test("FluidSynth's log function is installed before anything is loaded")
    func logFunctionInstalled() {
        _ = SoundDiagnostics.drainMessages()
        let (_, messages) = FluidLog.capturing { FluidLog.receive(level: 1, message: "test message") }
        #expect(messages == ["error: test message"])
        #expect(SoundDiagnostics.drainMessages().isEmpty)
    }
}

/// `SoundFontPresets` on SoundFonts made byte by byte: the preset headers it finds, and the
/// broken ones it refuses without reading past what the file says.
@Suite("SoundFont preset headers")
struct SoundFontPresetHeaderTests {
    /// A RIFF chunk: id, little-endian size, body, a pad byte when odd.
    static func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] {
        let size = UInt32(body.count)
        return Array(id.utf8) + [0, 8, 16, 24].map { UInt8((size >> UInt32($0)) & 0xFF) } + body + (body.count % 2 == 1 ? [0] : [])
    }

    /// A 38-byte preset header.
    static func header(_ name: String, program: UInt16, bank: UInt16) -> [UInt8] {
        let nameBytes = Array(name.utf8.prefix(20)) + [UInt8](repeating: 0, count: 20 - min(20, name.utf8.count))
        return nameBytes + [UInt8(program & 0xFF), UInt8(program >> 8), UInt8(bank & 0xFF), UInt8(bank >> 8)] + [UInt8](repeating: 0, count: 14)
    }

    static func soundFont(phdr: [UInt8]) -> [UInt8] {
        let info = chunk("LIST", Array("INFO".utf8) + chunk("ifil", [2, 0, 1, 0]))
        let samples = chunk("LIST", Array("sdta".utf8) + chunk("smpl", [UInt8](repeating: 0, count: 1001)))
        let presets = chunk("LIST", Array("pdta".utf8) + chunk("phdr", phdr) + chunk("pbag", [0, 0, 0, 0]))
        return chunk("RIFF", Array("sfbk".utf8) + info + samples + presets)
    }

    func write(_ bytes: [UInt8]) throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory()
        let path = directory.file("made.sf2")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (directory, path)
    }

    @Test func readsEveryHeaderButTheTerminal() throws {
        let phdr = Self.header("Alto Sax  ", program: 65, bank: 0) + Self.header("Kit", program: 0, bank: 128)
            + Self.header("Strings", program: 48, bank: 8) + Self.header("EOP", program: 0, bank: 0)
        let (directory, path) = try write(Self.soundFont(phdr: phdr))
        _ = directory
        let presets = try SoundFontPresets.read(path)
        #expect(presets == [SoundFontPreset(bank: 0, program: 65, name: "Alto Sax"), SoundFontPreset(bank: 8, program: 48, name: "Strings"),
                            SoundFontPreset(bank: 128, program: 0, name: "Kit")])
    }

    @Test("broken preset data is refused as not a SoundFont", arguments: ["no phdr", "a phdr of 37 bytes", "only the terminal"])
    func refusesBrokenHeaders(what: String) throws {
        let bytes: [UInt8]
        switch what {
        case "a phdr of 37 bytes": bytes = Self.soundFont(phdr: [UInt8](repeating: 65, count: 37))
        case "only the terminal": bytes = Self.soundFont(phdr: Self.header("EOP", program: 0, bank: 0))
        default:
            let info = Self.chunk("LIST", Array("INFO".utf8) + Self.chunk("ifil", [2, 0, 1, 0]))
            bytes = Self.chunk("RIFF", Array("sfbk".utf8) + info)
        }
        let (directory, path) = try write(bytes)
        _ = directory
        #expect(throws: SoundError.self, "\(what)") { try SoundFontPresets.read(path) }
    }

    /// Issue 44 #5: a 36-byte file whose `LIST pdta` and sub-chunk claim up to 4 GB is refused
    /// by the bytes left, before anything is read for them (it used to allocate and zero 3.9 GB).
    @Test("chunk sizes are bounded by the bytes left", arguments: [(UInt32(0xFFFF_FFF0), UInt32(0xFFFF_FF00)), (0x10_0000, 0xF_FFF0), (16, 0x8000)])
    func boundsChunksByTheBytesLeft(list: UInt32, sub: UInt32) throws {
        func le(_ value: UInt32) -> [UInt8] { [0, 8, 16, 24].map { UInt8((value >> UInt32($0)) & 0xFF) } }
        let bytes = Array("RIFF".utf8) + le(28) + Array("sfbkLIST".utf8) + le(list) + Array("pdtapbag".utf8) + le(sub) + [1, 2, 3, 4]
        #expect(bytes.count == 36)
        let (directory, path) = try write(bytes)
        _ = directory
        let expected = list > 16 ? "its \"LIST\" chunk at byte 12 says \(list) bytes, but only 16 are left"
            : "its \"pbag\" chunk at byte 24 says \(sub) bytes, but only 4 are left in its LIST pdta"
        #expect(throws: SoundError.notASoundFont(path: path, reason: expected)) { try SoundFontPresets.read(path) }
    }
}
