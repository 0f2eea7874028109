import Engine
import FileOutput
import Presets
import Session
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
    private var running: [(child: ChildProcess, plan: ItemPlan, partial: String, started: Double)] = []
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
            if request.outputs.contains(.stems) { try FileBytes.makeDirectory(partial + "/stems", existingIsFine: false) }
            let arguments = ["run"] + plan.arguments + request.outputArguments(for: plan.item.name, in: partial)
            let child = try ChildProcess(executable: ChildProcess.executable, arguments: arguments, logPath: partial + "/.stderr")
            running.append((child, plan, partial, Self.now()))
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
            let (_, plan, partial, started) = running.remove(at: index)
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
            let labels = try ItemLabels(eventsPath: partial + "/" + name + ".jsonl", midiPath: partial + "/" + name + ".mid",
                                        tempo: plan.tempo, meter: plan.meter, duration: plan.seconds)
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
        for (child, _, partial, _) in running {
            child.kill()
            FileBytes.removeTree(partial)
        }
        running = []
    }

    /// Removes the partial items of batch processes that no longer exist.
    static func removeStalePartials(in directory: String) {
        for name in FileBytes.names(in: directory) where name.hasPrefix(".") && name.hasSuffix(".partial") {
            var stem = Substring(name.dropLast(".partial".count))
            if stem.hasSuffix(".old") { stem = stem.dropLast(4) }
            let digits = stem.reversed().prefix { $0.isNumber }
            guard String(stem.dropLast(digits.count)).hasSuffix(".batch-"), let pid = Int32(String(digits.reversed())),
                  pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            FileBytes.removeTree(directory + "/" + name)
        }
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
