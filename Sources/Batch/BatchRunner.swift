// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Errors
import EventLog
import FileOutput
import Sound
import Text
#if canImport(Glibc)
import Glibc
#endif

/// What a shard's run did.
public struct BatchSummary: Sendable {
    /// Items rendered now.
    public var rendered = 0
    /// Items a previous run had finished (outputs and manifest entry matched).
    public var skipped = 0
    /// Items whose session failed (the first failure's error is thrown after the rest ran).
    public var failed = 0
    /// The signal that stopped the batch, or 0.
    public var signal: Int32 = 0
    /// The exit status of the first failure (a child's, or the error's), or 0.
    public var failureStatus: Int32 = 0
}

/// Renders a shard of a batch: each item by a child `clumsy run` into a hidden directory beside
/// its place (`.<item>.batch-<pid>.partial`), labelled and checksummed, then renamed into place
/// in one step and recorded in the shard's manifest. A crash or a kill leaves at most partial
/// directories, which the next run removes (their process is gone); finished items are kept.
public final class BatchRunner {
    let request: BatchRequest
    let stop: StopSignal
    private let manifestPath: String
    private let identities: [Int: [(key: String, value: JSONValue)]]
    private var entries: [String: JSONValue]
    private var running: [(child: ChildProcess, plan: ItemPlan, partial: String, lock: DirectoryLock, started: Double)] = []
    /// What the manifest listed for each item before this run (its files are the batch's;
    /// any other file in an item's directory is the user's).
    private var previous: [String: Set<String>] = [:]
    private var summary = BatchSummary()

    private init(_ request: BatchRequest, stop: StopSignal, plans: [ItemPlan]) {
        self.request = request
        self.stop = stop
        manifestPath = request.directory + "/" + Manifest.shardName(request.shard)
        let soundFont = request.soundFont()
        var identities: [Int: [(key: String, value: JSONValue)]] = [:]
        for plan in plans { identities[plan.item.index] = Manifest.identity(plan, outputs: request.outputs, soundFont: soundFont) }
        self.identities = identities
        entries = Manifest.read(manifestPath)
    }

    /// Renders this shard's items that are not done yet, `request.jobs` at a time.
    /// Failed items are reported on stderr as they fail, the others carry on (`failureStatus`).
    /// - Throws: what stops the batch from starting (64/65/66 for an item that cannot run,
    ///   73 for the directory), or from recording it (73, 74).
    public static func run(_ request: BatchRequest, stop: StopSignal) throws(SessionError) -> BatchSummary {
        let plans = try request.plans()
        try BatchDirectory.check(request)
        // The children stop when this process is gone (see the clumsy command's `Signals`).
        setenv("CLUMSY_BATCH_PARENT", String(getpid()), 1)
        try FileBytes.makeDirectory(request.directory, existingIsFine: true)
        removeStalePartials(in: request.directory)
        try BatchPlanFile.write(request)
        let runner = BatchRunner(request, stop: stop, plans: plans)
        return try runner.render(plans)
    }

    private func render(_ plans: [ItemPlan]) throws(SessionError) -> BatchSummary {
        // The manifest describes this batch: entries of items it does not have (another batch
        // in the same directory) are dropped.
        let names = Set(plans.map(\.item.name))
        entries = entries.filter { names.contains($0.key) }
        previous = entries.mapValues { Manifest.listedPaths($0) }
        var pending = plans.filter { plan in
            let name = plan.item.name
            guard let entry = entries[name], Manifest.isDone(entry, identity: identities[plan.item.index]!, directory: request.directory + "/" + name) else {
                entries[name] = nil
                return true
            }
            summary.skipped += 1
            return false
        }[...]
        while (!pending.isEmpty || !running.isEmpty) && !stop.isRaised {
            while running.count < request.jobs, let plan = pending.first, !stop.isRaised {
                pending = pending.dropFirst()
                start(plan)
            }
            reap()
            usleep(5_000)
        }
        if stop.isRaised {
            abandonAll()
            summary.signal = stop.raised
            return summary
        }
        try Manifest.rewrite(Array(entries.values), to: manifestPath)
        return summary
    }

    private func start(_ plan: ItemPlan) {
        let partial = request.directory + "/." + plan.item.name + ".batch-\(getpid()).partial"
        FileBytes.removeTree(partial)
        do throws(SessionError) {
            try FileBytes.makeDirectory(partial, existingIsFine: false)
            // Held until the item lands or is removed: what tells another shard's cleanup (in
            // another PID namespace, where this pid means nothing) that the work is live.
            guard let lock = DirectoryLock(ifFree: partial) else {
                throw .cannotCreate("\(Quote.text(partial)): another process took the item's directory")
            }
            if request.outputs.contains(.stems) { try FileBytes.makeDirectory(partial + "/stems", existingIsFine: false) }
            let arguments = ["run"] + request.outputArguments(for: plan.item.name, in: partial) + plan.arguments
            let child = try ChildProcess(executable: ChildProcess.executable, arguments: arguments, logPath: partial + "/.stderr")
            running.append((child, plan, partial, lock, Self.now()))
        } catch {
            FileBytes.removeTree(partial)
            fail(plan.item, error.description, status: error.exitStatus)
        }
    }

    /// Finishes every child that has ended.
    private func reap() {
        var index = 0
        while index < running.count {
            guard let status = running[index].child.poll() else { index += 1; continue }
            let (_, plan, partial, lock, started) = running.remove(at: index)
            defer { withExtendedLifetime(lock) {} }
            if stop.isRaised {
                // Stopping: a finished child's item is not landed now (the next run redoes it).
                FileBytes.removeTree(partial)
                continue
            }
            guard status == 0 else {
                let words = ChildProcess.lastWords(of: partial + "/.stderr")
                FileBytes.removeTree(partial)
                let shown = plan.item.runArguments.map { Quote.text($0) }.joined(separator: " ")
                fail(plan.item, "clumsy run \(shown) failed (exit \(status))\(words.isEmpty ? "" : ": " + words)",
                     status: (1...125).contains(status) ? status : 70)
                continue
            }
            do throws(SessionError) {
                try land(plan, partial: partial, started: started)
            } catch {
                FileBytes.removeTree(partial)
                if !stop.isRaised { fail(plan.item, error.description, status: error.exitStatus) }
            }
        }
    }

    /// Labels and checksums a finished item, moves it into place and records it.
    private func land(_ plan: ItemPlan, partial: String, started: Double) throws(SessionError) {
        let name = plan.item.name
        FileBytes.removeTree(partial + "/.stderr")
        if request.outputs.contains(.labels) {
            // The labels cover the audio to its end, tail and all (a 10 s session's FLAC runs 14 s).
            let audio = partial + "/" + name + "." + request.audioFormat
            let audioSeconds = FileBytes.kind(audio) == .missing ? nil : SoundFileLength.seconds(of: audio)
            let labels = try ItemLabels(eventsPath: partial + "/" + name + ".jsonl", midiPath: partial + "/" + name + ".mid",
                                        tempo: plan.tempo, meter: plan.meter, form: plan.form, ring: plan.ring, duration: plan.seconds,
                                        audioSeconds: audioSeconds)
            try LabelFiles.write(labels, item: name, into: partial)
            if !request.outputs.contains(.midi) { FileBytes.removeTree(partial + "/" + name + ".mid") }
            if !request.outputs.contains(.events) { FileBytes.removeTree(partial + "/" + name + ".jsonl") }
        }
        if request.outputs.contains(.stems) && !request.outputs.contains(.audio) { FileBytes.removeTree(partial + "/" + name + "." + request.audioFormat) }
        var files: [(path: String, bytes: Int, sha256: String)] = []
        for path in FileBytes.files(under: partial).sorted() {
            files.append((path, FileBytes.size(partial + "/" + path), try FileBytes.sha256(partial + "/" + path)))
        }
        let target = request.directory + "/" + name
        if FileBytes.kind(target) == .directory {
            try Self.carryOver(from: target, into: partial, rendered: Set(files.map(\.path)), listed: previous[name] ?? [])
        }
        if FileBytes.kind(target) != .missing {
            let old = request.directory + "/." + name + ".batch-\(getpid()).old.partial"
            try FileBytes.rename(target, to: old)
            FileBytes.removeTree(old)
        }
        try FileBytes.rename(partial, to: target)
        let entry = Manifest.entry(identity: identities[plan.item.index]!, files: files, seconds: Self.now() - started)
        try Manifest.append(entry, to: manifestPath)
        entries[name] = entry
        summary.rendered += 1
        if !request.isQuiet {
            let err = TerminalOutput.standardError
            err.write("\(name): \(files.count) file\(files.count == 1 ? "" : "s") (\(summary.rendered + summary.skipped) of \(identities.count))\n")
            err.flush()
        }
    }

    private func fail(_ item: BatchItem, _ message: String, status: Int32) {
        summary.failed += 1
        if summary.failureStatus == 0 { summary.failureStatus = status }
        let err = TerminalOutput.standardError
        err.write("clumsy: error: item \(item.name): \(Quote.message(message))\n")
        err.flush()
    }

    /// Ends every child at once and removes its unfinished item.
    private func abandonAll() {
        for (child, _, partial, _, _) in running {
            child.kill()
            FileBytes.removeTree(partial)
        }
        running = []
    }

    /// Removes the partial items of batch processes that no longer exist: whose pid is not
    /// known here and whose lock is free (taken here, held across the removal). A pid unknown
    /// here may be a live batch in another PID namespace; its lock keeps its work. `marker`:
    /// what precedes the pid (`.export-` for the partial exports of `clumsy batch export`).
    static func removeStalePartials(in directory: String, marker: String = ".batch-") {
        for name in FileBytes.names(in: directory) where name.hasPrefix(".") && name.hasSuffix(".partial") {
            var stem = Substring(name.dropLast(".partial".count))
            if stem.hasSuffix(".old") { stem = stem.dropLast(4) }
            let digits = stem.reversed().prefix { $0.isNumber }
            guard String(stem.dropLast(digits.count)).hasSuffix(marker), let pid = Int32(String(digits.reversed())),
                  pid != getpid(), kill(pid, 0) != 0, errno == ESRCH,
                  let lock = DirectoryLock(ifFree: directory + "/" + name) else { continue }
            FileBytes.removeTree(directory + "/" + name)
            withExtendedLifetime(lock) {}
        }
    }

    /// Moves the files of an item's old directory that the batch did not write (neither
    /// rendered now nor listed by its manifest entry: the user's) into the new one, so that
    /// replacing the directory removes only the batch's own files.
    static func carryOver(from old: String, into partial: String, rendered: Set<String>, listed: Set<String>) throws(SessionError) {
        for path in FileBytes.files(under: old) where !rendered.contains(path) && !listed.contains(path) {
            var parent = ""
            for component in path.split(separator: "/").dropLast() {
                parent += "/" + component
                try FileBytes.makeDirectory(partial + parent, existingIsFine: true)
            }
            try FileBytes.rename(old + "/" + path, to: partial + "/" + path)
        }
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
