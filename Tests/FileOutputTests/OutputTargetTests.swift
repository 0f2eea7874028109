// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import FileOutput
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("OutputTarget and OutputFile")
struct OutputTargetTests {
    @Test("a chain of relative links resolves to the final target, in the target's directory")
    func linkChain() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory.file("a.mid"), withDestinationPath: "sub/b.mid")
        try FileManager.default.createSymbolicLink(atPath: directory.file("sub/b.mid"), withDestinationPath: "c.mid")
        let target = try OutputTarget(path: directory.file("a.mid"))
        #expect(target.file.string == directory.file("sub/c.mid"))
        #expect(target.kind == .newFile)
        let file = try AtomicFile(path: directory.file("a.mid"))
        #expect(file.temporaryPath.hasPrefix(directory.file("sub/.c.mid.clumsy-")))
        try file.write([1, 2, 3])
        try file.commit()
        #expect(FileManager.default.contents(atPath: directory.file("sub/c.mid")) == Data([1, 2, 3]))
        #expect(directory.entries() == ["a.mid", "sub"])
    }

    @Test("a loop of links, a directory and an over-long name are refused up front")
    func refusals() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: directory.file("x"), withDestinationPath: "y")
        try FileManager.default.createSymbolicLink(atPath: directory.file("y"), withDestinationPath: "x")
        #expect(throws: FileOutputError.self) { try OutputTarget(path: directory.file("x")) }
        #expect(throws: FileOutputError.self) { try OutputTarget(path: directory.path) }
        #expect(throws: FileOutputError.self) { try OutputTarget(path: directory.file(String(repeating: "n", count: 256))) }
        #expect(throws: Never.self) { try OutputTarget(path: directory.file(String(repeating: "n", count: 255))) }
    }

    @Test("device nodes and FIFOs are special: written in place")
    func specialFiles() throws {
        let directory = try TemporaryDirectory()
        #expect(try OutputTarget(path: "/dev/null").kind == .special)
        #expect(mkfifo(directory.file("f"), 0o600) == 0)
        #expect(try OutputTarget(path: directory.file("f")).kind == .special)
        let file = try AtomicFile(path: "/dev/null")
        #expect(file.isDirect && file.temporaryPath == "/dev/null")
        try file.write("nothing")
        try file.commit()
    }

    @Test("temporary names carry the pid, stay within 255 bytes, and are recognised; others are not")
    func temporaryNames() throws {
        let directory = try TemporaryDirectory()
        let long = String(repeating: "é", count: 127)   // 254 bytes
        let file = try AtomicFile(path: directory.file(long))
        let name = String(file.temporaryPath.split(separator: "/").last!)
        #expect(name.utf8.count <= 255)
        #expect(TemporaryName.processID(in: name) == getpid())
        file.abandon()
        #expect(TemporaryName.processID(in: ".x.mid.clumsy-12-0123456789abcdef.tmp") == 12)
        for other in [".x.mid.12.0123456789abcdef.tmp", "x.mid.clumsy-12-0123456789abcdef.tmp", ".x.clumsy-12-0123.tmp",
                      ".x.clumsy--0123456789abcdef.tmp", ".x.wav.partial-12-1"] {
            #expect(TemporaryName.processID(in: other) == nil, "\(other)")
        }
    }

    @Test("replacing a file keeps an earlier hard link's content intact (rename, not truncate)")
    func replaceByRename() throws {
        let directory = try TemporaryDirectory()
        try Data("old".utf8).write(to: URL(fileURLWithPath: directory.file("song.mid")))
        try FileManager.default.linkItem(atPath: directory.file("song.mid"), toPath: directory.file("backup.mid"))
        let target = try OutputTarget(path: directory.file("song.mid"))
        #expect(target.kind == .existingFile && target.identity == FileIdentity(path: directory.file("backup.mid")))
        let file = try AtomicFile(path: directory.file("song.mid"))
        try file.write("new")
        try file.commit()
        #expect(FileManager.default.contents(atPath: directory.file("song.mid")) == Data("new".utf8))
        #expect(FileManager.default.contents(atPath: directory.file("backup.mid")) == Data("old".utf8))
    }
}
