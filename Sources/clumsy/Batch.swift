// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import ArgumentParser
import Batch
import Controls
import Engine
import Errors
import EventLog
import Session
import Text
#if canImport(Glibc)
import Glibc
#endif

struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Render many sessions (presets × seeds, or a manifest of items), in parallel and sharded.",
        discussion: """
        Each item runs as its own `clumsy run` and lands in OUT/<index>-<preset>-s<seed>/ in one step \
        (never half written). --shard I/N renders the items whose index mod N is I; without it the shard \
        comes from SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT (less SLURM_ARRAY_TASK_MIN) or a Kubernetes \
        Indexed Job's JOB_COMPLETION_INDEX with --shard-count or CLUMSY_SHARD_COUNT. Each shard keeps \
        OUT/manifest-I-of-N.jsonl; a rerun skips the items already done. An unsharded batch merges at \
        its end; after shards, run `clumsy batch merge OUT`. See docs/batch.md.
        Exit status: 0 ok, 64 bad flag, setting or --vary, or an output that is an input, 65 bad preset, \
        item manifest line, 66 unknown preset or unreadable item manifest (a FIFO too), \
        69 a child clumsy run cannot be started, 73 OUT cannot be created or holds files that are not a batch's, 74 write error, the first failed \
        item's status (70 for an item ended by a signal), 130/143 stopped by SIGINT/SIGTERM (unfinished \
        items removed, finished ones kept). \(ExitStatus.retryAdvice) `clumsy batch export` writes a merged \
        batch as WebDataset shards for a dataset hub.
        """,
        subcommands: [BatchMergeCommand.self, BatchExportCommand.self])

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The batch's directory (created if missing).", valueName: "dir"), completion: .directory)
    var output: String?

    @Option(help: ArgumentHelp("Bundled preset names or preset files, comma-separated.", valueName: "a,b"))
    var presets: String = "default"

    @Option(help: ArgumentHelp("Seeds: lo..hi (inclusive), a,b,c or one.", valueName: "seeds"))
    var seeds: String = "1"

    @Option(name: .customLong("set"), parsing: .unconditionalSingleValue, help: ArgumentHelp("Set a preset field for every item, as `clumsy run --set` (repeatable).", valueName: "field=value"))
    var assignments: [String] = []

    @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp("Draw a field per item: field=lo..hi, field=a,b,c or field=* (key, scale, meter, choices), from a stream keyed by the item (repeatable).", valueName: "field=range"))
    var vary: [String] = []

    @Option(help: ArgumentHelp("Items from a JSON Lines file instead: {\"preset\": \"default\", \"seed\": 7, \"settings\": {\"tempo\": 90}} a line.", valueName: "items.jsonl"))
    var manifest: String?

    @Option(help: ArgumentHelp("What each item writes, comma-separated: midi, events, audio, stems, labels, video.", valueName: "kinds"))
    var outputs: String = "midi,events,labels"

    @Option(help: ArgumentHelp("Audio file format: wav, flac or ogg.", valueName: "format"))
    var audioFormat: String = "wav"

    @Option(parsing: .unconditional, help: ArgumentHelp("Simulated time of each session: 90, 90s, 5m (default 30).", valueName: "time"))
    var duration: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Each session runs this many bars at its own tempo and meter instead.", valueName: "n"))
    var bars: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Audio sample rate in Hz, passed to every item.", valueName: "Hz"))
    var sampleRate: Int?

    @Option(help: ArgumentHelp("SoundFont file for every item's sound.", valueName: "file"))
    var soundfont: String?

    @Flag(help: "Switch the filter, delay and reverb off in every item.")
    var dry = false

    @Option(help: ArgumentHelp("Render the items with index mod N = I (default: from Slurm or Kubernetes, else 0/1).", valueName: "I/N"))
    var shard: String?

    @Option(help: ArgumentHelp("N for a Kubernetes Indexed Job's JOB_COMPLETION_INDEX (its completions).", valueName: "N"))
    var shardCount: Int?

    @Option(help: ArgumentHelp("Sessions at once (default: the number of CPUs).", valueName: "n"))
    var jobs: Int?

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs \(jobs) is out of range; accepted: 1…256") }
        if let bars, !(1...100_000).contains(bars) { throw ValidationError("--bars \(bars) is out of range; accepted: 1…100000") }
        if bars != nil && duration != nil { throw ValidationError("--bars and --duration both set the length: give one") }
        guard ["wav", "flac", "ogg"].contains(audioFormat) else { throw ValidationError("--audio-format \(Quote.text(audioFormat)) is not accepted; expected wav, flac or ogg") }
        if manifest != nil && (presets != "default" || seeds != "1" || !vary.isEmpty) {
            throw ValidationError("--manifest lists the items itself: leave out --presets, --seeds and --vary")
        }
        if output?.isEmpty == true { throw ValidationError("--output needs a directory") }
    }

    func kinds() throws -> Set<OutputKind> {
        var kinds: Set<OutputKind> = []
        for word in outputs.split(separator: ",", omittingEmptySubsequences: false) {
            guard let kind = OutputKind(rawValue: String(word)) else {
                throw ValidationError("--outputs \(Quote.text(outputs)): \(Quote.text(String(word))) is not accepted; expected some of \(OutputKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            kinds.insert(kind)
        }
        return kinds
    }

    func items() throws(SessionError) -> BatchItemList {
        if let manifest { return try BatchItems.read(manifest: manifest) }
        var fixed: [FieldAssignment] = []
        for text in assignments { fixed.append(try FieldAssignment(parsing: text)) }
        var variations: [Variation] = []
        for text in vary {
            let variation = try Variation(parsing: text)
            if variations.contains(where: { $0.path == variation.path }) {
                throw .usage("--vary \(variation.path) is given twice: give each field one --vary")
            }
            variations.append(variation)
        }
        let names = presets.split(separator: ",").map(String.init)
        guard !names.isEmpty else { throw .usage("--presets needs at least one preset name") }
        return BatchItems.make(presets: names, seeds: try SeedList.parse(seeds), fixed: fixed, variations: variations)
    }

    func request() throws -> BatchRequest {
        // Checked here, not in validate(): `clumsy batch merge` runs this command's validate() too.
        guard let output else { throw fail(.usage("--output (-o) is needed: the batch's directory, e.g. clumsy batch -o out --seeds 1..10")) }
        var request: BatchRequest
        do throws(SessionError) {
            request = BatchRequest(items: try items(), directory: output)
            let environment = ProcessInfoLite.environment
            if let shard {
                request.shard = try Shard(parsing: shard)
            } else {
                request.shard = try Shard.fromEnvironment(environment, count: shardCount) ?? .whole
            }
            request.environment = environment
        } catch {
            // Each with its own status: a bad item manifest line is 65, an unreadable one 66.
            throw fail(error)
        }
        request.outputs = try kinds()
        request.audioFormat = audioFormat
        request.jobs = jobs ?? max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        if let duration {
            guard let seconds = DurationText.seconds(duration), Limits.duration.contains(seconds) else {
                throw ValidationError("--duration \(Quote.text(duration)) is not accepted; expected \(DurationText.accepted), \(Limits.text(Limits.duration, unit: "s"))")
            }
            request.duration = seconds
        }
        request.bars = bars
        if let sampleRate { request.runOptions += ["--sample-rate", String(sampleRate)] }
        if let soundfont { request.runOptions += ["--soundfont", soundfont] }
        request.inputs = [manifest, soundfont].compactMap { $0 }
        if dry { request.runOptions.append("--dry") }
        request.isQuiet = quiet
        request.command = Self.batchCommand(commandLine())
        return request
    }

    /// The batch's arguments without those that only say how this process runs (shard, jobs, quiet).
    static func batchCommand(_ arguments: [String]) -> [String] {
        var kept: [String] = []
        var skipNext = false
        for argument in arguments {
            if skipNext { skipNext = false; continue }
            if ["--shard", "--shard-count", "--jobs"].contains(argument) { skipNext = true; continue }
            if argument == "--quiet" || ["--shard=", "--shard-count=", "--jobs="].contains(where: argument.hasPrefix) { continue }
            kept.append(argument)
        }
        return kept
    }

    func run() throws {
        let request = try request()
        let summary: BatchSummary
        do {
            summary = try BatchRunner.run(request, stop: stopSignal)
        } catch {
            throw fail(error)
        }
        if summary.signal != 0 { throw ExitCode(128 + summary.signal) }
        if summary.failed > 0 { throw ExitCode(summary.failureStatus) }
        if request.shard == .whole {
            do { _ = try BatchMerge.merge(request.directory) } catch { throw fail(error) }
        }
        if !quiet {
            TerminalOutput.standardOutput.write("\(summary.rendered) rendered, \(summary.skipped) already done (shard \(request.shard)) in \(Quote.text(request.directory))\n")
        }
    }
}

struct BatchMergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the shard manifests of a batch into manifest.jsonl and write its dataset card (README.md).",
        discussion: """
        Exit status: 0 ok, 65 items missing, in two shards or whose files do not match their entry \
        (named; nothing is written then), 66 no batch or no shard manifest there, 73/74 manifest.jsonl \
        or README.md cannot be written.
        """)

    @Argument(help: "The batch's directory.", completion: .directory)
    var directory: String

    func run() throws {
        let result: BatchMerge.Result
        do { result = try BatchMerge.merge(directory) } catch { throw fail(error) }
        TerminalOutput.standardOutput.write("merged \(result.items) items from \(result.shards) shard manifest\(result.shards == 1 ? "" : "s") into \(Quote.text(directory + "/manifest.jsonl"))\n")
    }
}

struct BatchExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a finished batch as WebDataset shards with a dataset card, for a dataset hub and a datasets/PyTorch loader.",
        discussion: """
        OUT/data/train-00000.tar, …: plain tar shards, each item's KEY.json (settings and labels), KEY.mid and \
        audio side by side, in index order; OUT/README.md: the dataset card, its YAML naming the shards and \
        their columns. Every file packed is checked against its sha256 in manifest.jsonl; OUT appears whole or \
        not at all. See docs/batch.md.
        Exit status: 0 ok, 64 bad flag, a shard size that makes more than 10000 shards or an OUT that is the \
        batch's, 65 items missing from manifest.jsonl or a file that is not the one recorded (named; nothing \
        is written then), 66 no batch or no manifest.jsonl (run clumsy batch merge), 73 OUT exists (without \
        --overwrite) or is not an export, 74 write error. \(ExitStatus.retryAdvice)
        """)

    @Argument(help: "The batch's directory (finished and merged).", completion: .directory)
    var directory: String

    @Argument(help: ArgumentHelp("The export's directory (must not exist unless --overwrite).", valueName: "output"), completion: .directory)
    var output: String

    @Option(help: ArgumentHelp("Items per shard (default: about 500 MB a shard, at most 1000 items).", valueName: "n"))
    var shardSize: Int?

    @Flag(help: "Replace an earlier export in the output directory.")
    var overwrite = false

    func validate() throws {
        if let shardSize, !(1...1_000_000).contains(shardSize) { throw ValidationError("--shard-size \(shardSize) is out of range; accepted: 1…1000000") }
        if output.isEmpty { throw ValidationError("the export needs a directory") }
    }

    func run() throws {
        var request = ExportRequest(batch: directory, output: output)
        request.shardSize = shardSize
        request.overwrite = overwrite
        let result: BatchExport.Result
        do { result = try BatchExport.export(request) } catch { throw fail(error) }
        TerminalOutput.standardOutput.write("exported \(result.items) items as \(result.shards) shard\(result.shards == 1 ? "" : "s") of up to \(result.shardSize) "
            + "(\(Format.plain((Double(result.bytes) / 1e5).rounded() / 10)) MB) into \(Quote.text(output))\n")
    }
}
