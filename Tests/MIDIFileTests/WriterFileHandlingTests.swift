// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import MIDIFile
import TestSupport
import Testing

@Suite("Writer file handling")
struct WriterFileHandlingTests {
    @Test("a missing directory fails at init with cannotCreate")
    func missingDirectory() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("missing/out.mid")
        let error = #expect(throws: MIDIFileError.self) { try MIDIFileWriter(path: path, trackCount: 2) }
        #expect(error == .cannotCreate(path: path, reason: "No such file or directory"))
        #expect(error?.description == "cannot create MIDI file '\(path)': No such file or directory (its directory must exist and be writable)")
    }

    @Test("abandon leaves an existing file untouched and no temporary files behind")
    func abandonKeepsExisting() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("session.mid")
        let original = try goldenBytes("small.mid")
        try writeDirectly(original, to: path)
        let writer = try MIDIFileWriter(path: path, trackCount: 3)
        for index in 0..<50_000 {
            try writer.append(.noteOn(channel: 0, note: 60, velocity: UInt8(index % 128)), atTick: UInt64(index), track: index % 3)
        }
        writer.abandon()
        writer.abandon()
        #expect(try contentsOf(path) == original)
        #expect(directory.entries() == ["session.mid"])
    }

    @Test("a writer dropped without finish leaves nothing behind")
    func deinitAbandons() throws {
        let directory = try TemporaryDirectory()
        do {
            let writer = try MIDIFileWriter(path: directory.file("dropped.mid"), trackCount: 2)
            try writer.append(.text("x"), atTick: 0, track: 1)
        }
        #expect(directory.entries().isEmpty)
    }

    @Test("the existing file is replaced only by finish")
    func replacesAtFinish() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("take.mid")
        try writeDirectly(Array("previous take".utf8), to: path)
        let writer = try MIDIFileWriter(path: path, trackCount: 1)
        try writer.append(.noteOn(channel: 9, note: 36, velocity: 127), atTick: 0, track: 0)
        #expect(try contentsOf(path) == Array("previous take".utf8))
        try writer.finish()
        let contents = try MIDIFileReader.read(path: path)
        #expect(contents.tracks[0].first == MIDIEvent(tick: 0, message: .noteOn(channel: 9, note: 36, velocity: 127)))
        #expect(directory.entries() == ["take.mid"])
    }

    @Test("a full disk gives writeFailed; the earlier file survives and nothing else remains",
          .enabled(if: TinyFileSystem.isAvailable, "needs permission to mount a 64 KiB tmpfs (root) to simulate a full disk"))
    func diskFull() throws {
        let disk = try #require(TinyFileSystem(kibibytes: 64))
        let path = disk.path + "/session.mid"
        try writeDirectly(Array("earlier".utf8), to: path)
        let writer = try MIDIFileWriter(path: path, trackCount: 2)
        var caught: MIDIFileError?
        do {
            for index in 0..<200_000 {
                try writer.append(.noteOn(channel: 1, note: 64, velocity: 64), atTick: UInt64(index), track: index % 2)
            }
            try writer.finish()
        } catch {
            caught = error
        }
        let error = try #require(caught)
        guard case .writeFailed(let errorPath, let reason) = error else {
            Issue.record("expected writeFailed, got \(error)")
            return
        }
        #expect(errorPath == path)
        #expect(reason.contains("No space left on device"))
        #expect(error.description.contains(path))
        #expect(throws: error) { try writer.append(.endOfTrack, atTick: 999_999, track: 0) }
        #expect(throws: error) { try writer.finish() }
        #expect(try contentsOf(path) == Array("earlier".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path) == ["session.mid"])
    }
}
