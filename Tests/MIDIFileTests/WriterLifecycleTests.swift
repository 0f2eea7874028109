// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import FileOutput
import MIDIFile
import Testing

/// What a child process of an exit test wrote to standard error ("" if the test did not run).
private func standardError(_ result: ExitTest.Result?) -> String {
    String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
}

private struct Broken: Error, Equatable { var code: Int }

@Suite("WriterLifecycle")
struct WriterLifecycleTests {
    @Test("open passes the check; a failure cleans up once and is thrown by every later check")
    func failureIsRemembered() {
        var lifecycle = WriterLifecycle<Broken>(owner: "Writer", finishName: "finish()")
        var cleanUps = 0
        #expect(lifecycle.isOpen)
        #expect(throws: Never.self) { try lifecycle.check("writer") }

        #expect(lifecycle.fail(Broken(code: 1)) { cleanUps += 1 } == Broken(code: 1))
        #expect(cleanUps == 1)
        #expect(!lifecycle.isOpen && !lifecycle.isFinished)
        #expect(throws: Broken(code: 1)) { try lifecycle.check("writer") }

        // A second failure replaces the error but does not clean up again; nor does abandon.
        #expect(lifecycle.fail(Broken(code: 2)) { cleanUps += 1 } == Broken(code: 2))
        #expect(throws: Broken(code: 2)) { try lifecycle.check("writer") }
        lifecycle.abandon { cleanUps += 1 }
        lifecycle.abandon { cleanUps += 1 }
        #expect(cleanUps == 1)
        #expect(!lifecycle.isOpen)
    }

    @Test("abandon cleans up once while open; after finish it does nothing")
    func abandonAndFinish() {
        var cleanUps = 0
        var abandoned = WriterLifecycle<Broken>(owner: "Writer", finishName: "commit()")
        abandoned.abandon { cleanUps += 1 }
        abandoned.abandon { cleanUps += 1 }
        #expect(cleanUps == 1)
        #expect(!abandoned.isOpen && !abandoned.isFinished)

        var finished = WriterLifecycle<Broken>(owner: "Writer", finishName: "commit()")
        finished.finish()
        #expect(finished.isFinished && !finished.isOpen)
        finished.abandon { cleanUps += 1 }
        #expect(cleanUps == 1)
        #expect(finished.isFinished)
    }

    // Use after finishing or abandoning is a programmer error: the process stops with the
    // owner's own wording. /dev/null is written in place, so the child leaves nothing behind.

    @Test("AtomicFile used after commit() or abandon() stops with its message")
    func atomicFileMisuse() async throws {
        let afterCommit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let file = try AtomicFile(path: "/dev/null")
            try file.commit()
            try file.write([1])
        }
        #expect(standardError(afterCommit).contains("AtomicFile '/dev/null' used after commit()"))
        let afterAbandon = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let file = try AtomicFile(path: "/dev/null")
            file.abandon()
            try file.commit()
        }
        #expect(standardError(afterAbandon).contains("AtomicFile '/dev/null' used after abandon()"))
    }

    @Test("MIDIFileWriter used after finish() or abandon() stops with its message")
    func midiWriterMisuse() async throws {
        let afterFinish = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let writer = try MIDIFileWriter(path: "/dev/null", trackCount: 1)
            try writer.finish()
            try writer.append(.endOfTrack, atTick: 0, track: 0)
        }
        #expect(standardError(afterFinish).contains("MIDIFileWriter for '/dev/null' used after finish()"))
        let afterAbandon = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let writer = try MIDIFileWriter(path: "/dev/null", trackCount: 1)
            writer.abandon()
            try writer.finish()
        }
        #expect(standardError(afterAbandon).contains("MIDIFileWriter for '/dev/null' used after abandon()"))
    }
}
