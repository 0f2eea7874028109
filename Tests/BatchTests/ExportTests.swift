// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import FileOutput
import Foundation
import TestSupport
import Testing
import Text
@testable import Batch

/// `clumsy batch export` in process: the tar writer's bytes (read back by Python's `tarfile`),
/// the shard sizes a hub's folder limit allows, the keys and the columns of `KEY.json`. The
/// end-to-end tests export real batches and load them with `datasets`.
@Suite("Batch export")
struct ExportTests {
    /// Writes an archive of `members` with `TarWriter` into `path`.
    static func archive(_ members: [(String, [UInt8])], at path: String) throws {
        let file = try AtomicFile(path: path)
        var tar = TarWriter(file)
        for (name, bytes) in members { try tar.add(name, bytes) }
        try tar.finish()
        try file.commit()
    }

    static let members: [(String, [UInt8])] = [
        ("00000-default-s1.json", Array("{\"seed\":1}\n".utf8)),
        ("00000-default-s1.mid", []),
        ("00001-my_preset-s2.flac", (0..<512).map { UInt8($0 % 251) }),
        ("00001-my_preset-s2.mid", (0..<1_025).map { UInt8($0 % 7) }),
    ]

    @Test("A ustar header: name, mode 0644, uid/gid 0, octal size, mtime 0, its checksum, typeflag 0, magic ustar 00")
    func headerLayout() throws {
        let header = try TarWriter.header(name: "00001-my_preset-s2.mid", size: 1_025)
        #expect(header.count == 512)
        func field(_ offset: Int, _ length: Int) -> String { String(decoding: header[offset..<(offset + length)], as: UTF8.self) }
        #expect(field(0, 22) == "00001-my_preset-s2.mid" && header[22..<100].allSatisfy { $0 == 0 })
        #expect(field(100, 8) == "0000644\0" && field(108, 8) == "0000000\0" && field(116, 8) == "0000000\0")
        #expect(field(124, 12) == "00000002001\0" && field(136, 12) == "00000000000\0")
        #expect(field(156, 1) == "0" && field(257, 6) == "ustar\0" && field(263, 2) == "00")
        #expect(header[265..<329].allSatisfy { $0 == 0 }, "owner names are empty")
        var summed = header
        summed.replaceSubrange(148..<156, with: Array("        ".utf8))
        let sum = summed.reduce(0) { $0 + Int($1) }
        #expect(field(148, 8) == String(repeating: "0", count: 6 - String(sum, radix: 8).count) + String(sum, radix: 8) + "\0 ")
    }

    @Test("Python's tarfile reads what TarWriter writes: every member's name, size, mode, owner, time and bytes; the same members give the same bytes")
    func tarfileReadsIt() throws {
        let directory = try TemporaryDirectory(prefix: "tar-writer")
        try Self.archive(Self.members, at: directory.file("a.tar"))
        try Self.archive(Self.members, at: directory.file("b.tar"))
        let bytes = try #require(FileManager.default.contents(atPath: directory.file("a.tar")))
        #expect(bytes == FileManager.default.contents(atPath: directory.file("b.tar")), "not deterministic")
        #expect(bytes.count % 10_240 == 0, "not a whole record: \(bytes.count)")
        let script = """
        import hashlib, json, sys, tarfile
        with tarfile.open(sys.argv[1], format=tarfile.USTAR_FORMAT) as t:
            print(json.dumps([[m.name, m.size, m.mode, m.uid, m.gid, m.uname, m.mtime, m.isreg(),
                              hashlib.sha256(t.extractfile(m).read()).hexdigest()] for m in t.getmembers()]))
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, directory.file("a.tar")]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let read = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "python3's tarfile could not read the archive")
        let rows = try #require(try JSONSerialization.jsonObject(with: read) as? [[Any]])
        #expect(rows.count == Self.members.count)
        for (row, (name, content)) in zip(rows, Self.members) {
            var hash = SHA256()
            hash.add(content)
            #expect(row[0] as? String == name && row[1] as? Int == content.count && row[2] as? Int == 0o644, "\(row)")
            #expect(row[3] as? Int == 0 && row[4] as? Int == 0 && row[5] as? String == "" && row[6] as? Int == 0, "\(row)")
            #expect(row[7] as? Bool == true && row[8] as? String == hash.hex(), "\(row)")
        }
    }

    @Test("A member name that is not 1…100 bytes of printable relative ASCII is refused",
          arguments: ["", String(repeating: "a", count: 101), "/etc/passwd", "../x.mid", "a b.mid", "é.mid", "a\n.mid"])
    func badNames(name: String) {
        #expect(throws: SessionError.self) { try TarWriter.header(name: name, size: 0) }
    }

    @Test("Default shard size: about 500 MB, at most 1000 items, never more than 10000 shards; a requested size that makes more is refused naming the smallest")
    func shardSizes() throws {
        #expect(try BatchExport.shardSize(items: 1_000, bytes: 1_000 * 20_000, requested: nil) == 1_000)
        #expect(try BatchExport.shardSize(items: 30_000, bytes: 30_000 * 10_000_000, requested: nil) == 50)
        #expect(try BatchExport.shardSize(items: 10, bytes: 10 * 2_000_000_000, requested: nil) == 1)
        #expect(try BatchExport.shardSize(items: 3_000_000, bytes: 3_000_000 * 20_000_000, requested: nil) == 300)
        #expect(try BatchExport.shardSize(items: 100_000, bytes: 0, requested: 10) == 10)
        #expect(try BatchExport.shardSize(items: 7, bytes: 70, requested: 5) == 5)
        #expect { try BatchExport.shardSize(items: 100_000, bytes: 0, requested: 9) } throws: { error in
            guard let error = error as? SessionError, case .usage(let message) = error else { return false }
            return message.contains("11112 shards") && message.contains("accepted: 10 or more")
        }
        for items in [1, 999, 1_000, 1_001, 10_000_000] {
            let size = try BatchExport.shardSize(items: items, bytes: items * 100_000_000, requested: nil)
            #expect((items + size - 1) / size <= BatchExport.folderLimit, "\(items) items")
        }
        #expect(BatchExport.shardName(0) == "train-00000.tar" && BatchExport.shardName(9_999) == "train-09999.tar")
    }

    @Test("A key has no dot (WebDataset splits at the first): an item's name with its dots made _")
    func keys() {
        #expect(BatchExport.key(of: "00003-my.preset.v2-s7") == "00003-my_preset_v2-s7")
        #expect(BatchExport.key(of: "00000-default-s1") == "00000-default-s1")
    }

    @Test("KEY.json: the manifest's fields, settings as one JSON text, every time with a decimal point, bar positions whole")
    func record() throws {
        let entry = try JSONParser.parse(Array("""
        {"item":"00000-default-s1","index":0,"preset":"default","preset_digest":"ab","seed":1,"settings":{"tempo":"96"},\
        "arguments":["--seed","1","--","default"],"clumsy":"0.2.0","files":[]}
        """.utf8))
        let jams = Array("""
        {"annotations":[{"namespace":"chord","data":[{"time":0,"duration":2,"value":"C:maj7","confidence":1}]},\
        {"namespace":"key_mode","data":[{"time":0,"duration":4,"value":"C:major","confidence":1}]},\
        {"namespace":"tempo","data":[{"time":0,"duration":4,"value":96,"confidence":1}]},\
        {"namespace":"beat","data":[{"time":0,"duration":0,"value":1,"confidence":1},{"time":0.625,"duration":0,"value":2,"confidence":1}]}],\
        "file_metadata":{"duration":4}}
        """.utf8)
        let text = try ExportRecord.text(entry, jams: jams, path: "b/00000-default-s1")
        let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect(json?["settings"] as? String == "{\"tempo\":\"96\"}")
        #expect(text.contains("\"chords\":[{\"time\":0.000000,\"duration\":2.000000,\"value\":\"C:maj7\"}]"), "\(text)")
        #expect(text.contains("\"tempo\":[{\"time\":0.000000,\"duration\":4.000000,\"value\":96.000000}]"), "\(text)")
        #expect(text.contains("\"beats\":[{\"time\":0.000000,\"position\":1},{\"time\":0.625000,\"position\":2}]"), "\(text)")
        #expect(text.contains("\"sections\":[]") && text.contains("\"duration\":4.000000,"), "\(text)")
        #expect(json?["jams"] as? String == String(decoding: jams, as: UTF8.self))
        #expect { try ExportRecord.text(entry, jams: Array("{".utf8), path: "b/00000-default-s1") } throws: { error in
            guard let error = error as? SessionError, case .data(let message) = error else { return false }
            return message.contains("b/00000-default-s1") && message.contains("not JSON")
        }
    }
}
