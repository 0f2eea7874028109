// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import FileOutput
import Foundation
import TestSupport
import Testing

@Suite("AtomicFile")
struct AtomicFileTests {
    @Test("committed file holds exactly the bytes written through every write overload")
    func committedContent() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("out.bin")
        let file = try AtomicFile(path: path)
        #expect(file.path == path)
        #expect(file.temporaryPath.hasPrefix(directory.path + "/.out.bin."))
        #expect(file.temporaryPath.hasSuffix(".tmp"))
        #expect(FileManager.default.fileExists(atPath: file.temporaryPath))
        #expect(!FileManager.default.fileExists(atPath: path))

        var expected: [UInt8] = []
        try file.write([1, 2, 3])
        expected += [1, 2, 3]
        try file.write("héllo")
        expected += Array("héllo".utf8)
        let lazyBytes = (0..<300).lazy.map { UInt8(truncatingIfNeeded: $0 * 7) }
        try file.write(lazyBytes)
        expected += Array(lazyBytes)
        let big = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try file.write(big)
        expected += big
        try file.write(big[10..<70_000])
        expected += big[10..<70_000]
        #expect(file.bytesWritten == expected.count)

        try file.commit()
        #expect(file.isCommitted)
        #expect(try contentsOf(path) == expected)
        #expect(directory.entries() == ["out.bin"])
        file.abandon() // no-op after commit
        #expect(try contentsOf(path) == expected)
    }

    @Test("an earlier file stays untouched until commit, then is replaced")
    func replacesOnlyAtCommit() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("score.txt")
        try writeDirectly(Array("old".utf8), to: path)
        let file = try AtomicFile(path: path)
        try file.write(String(repeating: "new", count: 50_000))
        #expect(try contentsOf(path) == Array("old".utf8))
        try file.commit()
        #expect(try contentsOf(path) == Array(String(repeating: "new", count: 50_000).utf8))
        #expect(directory.entries() == ["score.txt"])
    }

    @Test("abandon leaves the earlier file untouched and no temporary file; it is idempotent")
    func abandonKeepsOriginal() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("keep.txt")
        try writeDirectly(Array("original".utf8), to: path)
        let file = try AtomicFile(path: path)
        try file.write(Array(repeating: 0xAB, count: 100_000))
        file.abandon()
        file.abandon()
        #expect(try contentsOf(path) == Array("original".utf8))
        #expect(directory.entries() == ["keep.txt"])
    }

    @Test("deinit without commit removes the temporary file")
    func deinitAbandons() throws {
        let directory = try TemporaryDirectory()
        do {
            let file = try AtomicFile(path: directory.file("gone.txt"))
            try file.write("partial")
            #expect(directory.entries().count == 1)
        }
        #expect(directory.entries().isEmpty)
    }

    @Test("a missing directory fails at init with cannotCreate naming the path and the OS error")
    func missingDirectory() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("no/such/dir/out.mid")
        let error = #expect(throws: FileOutputError.self) { try AtomicFile(path: path) }
        #expect(error == .cannotCreate(path: path, reason: "No such file or directory"))
        #expect(error?.description.contains(path) == true)
        #expect(error?.description.contains("must exist and be writable") == true)
    }

    @Test("a path that is a directory fails at init")
    func directoryPath() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: FileOutputError.self) { try AtomicFile(path: directory.path) }
        #expect(throws: FileOutputError.self) { try AtomicFile(path: directory.path + "/") }
        #expect(throws: FileOutputError.self) { try AtomicFile(path: "") }
    }

    @Test("overwrite patches bytes already written, including still-buffered ones")
    func overwritePatches() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("patched.bin")
        let file = try AtomicFile(path: path)
        try file.write([0, 0, 0, 0])
        try file.write(Array(repeating: 7, count: 100_000))
        try file.overwrite([0xDE, 0xAD, 0xBE, 0xEF], atOffset: 0)
        try file.write([9])
        try file.overwrite([1], atOffset: 100_004)
        try file.commit()
        let bytes = try contentsOf(path)
        #expect(bytes.count == 100_005)
        #expect(Array(bytes[0..<4]) == [0xDE, 0xAD, 0xBE, 0xEF])
        #expect(bytes[4] == 7 && bytes[100_003] == 7 && bytes[100_004] == 1)
    }

    @Test("a full disk surfaces as writeFailed; the earlier file survives and no temporary file remains",
          .enabled(if: TinyFileSystem.isAvailable, "needs permission to mount a 64 KiB tmpfs (root) to simulate a full disk"))
    func diskFull() throws {
        let disk = try #require(TinyFileSystem(kibibytes: 64))
        let path = disk.path + "/big.bin"
        try writeDirectly(Array("precious".utf8), to: path)
        let file = try AtomicFile(path: path)
        var caught: FileOutputError?
        do {
            for _ in 0..<32 { try file.write(Array(repeating: 0x55, count: 16 * 1024)) }
            try file.commit()
        } catch {
            caught = error
        }
        let error = try #require(caught)
        #expect(error == .writeFailed(path: path, reason: "No space left on device"))
        #expect(error.description.contains(path))
        // Later calls keep reporting the failure instead of writing.
        #expect(throws: error) { try file.write([1]) }
        #expect(throws: error) { try file.commit() }
        #expect(try contentsOf(path) == Array("precious".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path) == ["big.bin"])
    }
}
