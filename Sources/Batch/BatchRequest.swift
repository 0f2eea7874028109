// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Errors
import Performance
import Sound
import Text
import Vocabulary

/// What each item writes.
public enum OutputKind: String, Sendable, CaseIterable, Comparable {
    /// `<item>.mid`.
    case midi
    /// `<item>.jsonl`, the event log.
    case events
    /// `<item>.wav` (or `--audio-format`'s extension).
    case audio
    /// `stems/`: an audio and a MIDI file per voice (with audio).
    case stems
    /// `<item>.jams`, `<item>.chords.lab`, `<item>.beats.txt`.
    case labels
    /// `<item>.mp4`, a video with sound.
    case video

    public static func < (a: OutputKind, b: OutputKind) -> Bool { a.rawValue < b.rawValue }

    /// True for the kinds FluidSynth renders (the manifest then names the SoundFont).
    var isSound: Bool { self == .audio || self == .stems || self == .video }
}

/// A batch to render: its items, this process's shard and how.
public struct BatchRequest: Sendable {
    /// Every item of the batch (all shards), each made when asked for.
    public var items: BatchItemList
    public var shard: Shard = .whole
    /// Children at once.
    public var jobs: Int = 1
    /// The batch's directory (created if missing).
    public var directory: String
    public var outputs: Set<OutputKind> = [.midi, .events, .labels]
    /// `wav`, `flac` or `ogg`.
    public var audioFormat = "wav"
    /// Seconds per session (nil with `bars`).
    public var duration: Double? = 30
    /// Bars per session at each item's tempo and meter.
    public var bars: Int?
    /// `clumsy run` flags given to every item besides its own (`--sample-rate 48000`, `--soundfont F`, `--dry`).
    public var runOptions: [String] = []
    /// Files the batch reads besides its presets (the item manifest, the SoundFont): none may be an output.
    public var inputs: [String] = []
    /// The batch's own arguments, without the shard and the jobs (for `batch.json` and the card).
    public var command: [String] = []
    public var isQuiet = false
    public var environment: [String: String] = [:]

    public init(items: BatchItemList, directory: String) {
        self.items = items
        self.directory = directory
    }
}

/// One item made ready: its preset checked with its settings, and what its manifest entry states.
struct ItemPlan {
    let item: BatchItem
    /// `sha256:` of the preset file's bytes.
    let presetDigest: String
    let tempo: Double
    let meter: Meter
    /// The session's form (phrases and section letters), nil without one.
    let form: FormPlan?
    /// Seconds an ending's last notes ring after its last bar (0 without an ending).
    let ring: Double
    /// Seconds the session runs (at least: a session with an ending runs on to a phrase end).
    let seconds: Double
    /// The `clumsy run` arguments, outputs left out: options, then `--` and the preset (outputs
    /// go before them).
    let arguments: [String]
}

extension BatchRequest {
    /// Every item of this shard, checked (preset found and read, each `--set` accepted) before any is rendered.
    /// - Throws: what loading the preset or an assignment throws (64, 65, 66), naming the item.
    func plans() throws(SessionError) -> [ItemPlan] {
        var digests: [String: String] = [:]
        var plans: [ItemPlan] = []
        for index in items.indexes(in: shard) {
            let item = items.item(index)
            if digests[item.preset] == nil {
                var hash = SHA256()
                hash.add(try PresetFiles.bytes(try PresetFiles.locate(item.preset)))
                digests[item.preset] = "sha256:" + hash.hex()
            }
            // The one resolve step, as `clumsy run` takes it: what the labels need is read from
            // the plan, and an item the run would refuse is refused here, before any renders.
            // The item's seed is set after its settings, as its `--seed` is.
            var overrides = Overrides()
            overrides.bars = bars
            let plan: SessionPlan
            do {
                for setting in item.settings { overrides.assignments.append(try FieldAssignment(parsing: setting.path + "=" + setting.value)) }
                overrides.assignments += Overrides(seed: item.seed).assignments
                plan = try SessionPlan.resolve(preset: item.preset, overrides: overrides, duration: duration ?? 30)
            } catch {
                // A field of the preset (as the item's settings left it) is the data's fault (65); the rest the item's.
                if case .preset(let file, let field, let message) = error { throw .preset(file: file, field: field, message: "\(message) (item \(item.name))") }
                throw .usage("item \(item.name): \(error.description)")
            }
            let (tempo, meter) = (plan.clock.tempo, plan.clock.meter)
            let seconds = bars.map { Double($0 * meter.beats) * (60 / tempo) * 4 / Double(meter.unit) } ?? duration ?? 30
            let length = bars.map { ["--bars", String($0)] } ?? ["--duration", Format.plain(seconds)]
            plans.append(ItemPlan(item: item, presetDigest: digests[item.preset]!, tempo: tempo, meter: meter,
                                  form: plan.form, ring: plan.ending?.ring ?? 0, seconds: seconds,
                                  arguments: item.runOptions + length + runOptions + ["--", item.preset]))
        }
        return plans
    }

    /// The SoundFont the items' sound is rendered with, as the manifest names it (nil without sound).
    func soundFont() -> JSONValue {
        guard outputs.contains(where: \.isSound) else { return .null }
        var explicit: String?
        if let flag = runOptions.firstIndex(of: "--soundfont"), flag + 1 < runOptions.count { explicit = runOptions[flag + 1] }
        guard let path = try? SoundFontLocator.resolve(explicit: explicit, environment: environment, preset: nil) else { return .null }
        let name = String(path.split(separator: "/").last ?? Substring(path))
        let size = FileBytes.size(path)
        return .object([("file", .string(name)), ("bytes", .number(Double(size)))])
    }

    /// The `clumsy run` output flags for an item whose files go into `directory`.
    func outputArguments(for name: String, in folder: String) -> [String] {
        // A directory named `-x` (`--output=-x`) would be read by the child as a flag.
        let directory = folder.hasPrefix("-") ? "./" + folder : folder
        var arguments: [String] = []
        if outputs.contains(.midi) || outputs.contains(.labels) { arguments += ["--midi", directory + "/" + name + ".mid"] }
        if outputs.contains(.events) || outputs.contains(.labels) { arguments += ["--events", directory + "/" + name + ".jsonl"] }
        if outputs.contains(.audio) || outputs.contains(.stems) { arguments += ["--audio", directory + "/" + name + "." + audioFormat] }
        if outputs.contains(.stems) { arguments += ["--stems", directory + "/stems"] }
        if outputs.contains(.video) { arguments += ["--video", directory + "/" + name + ".mp4"] }
        return arguments + ["--quiet"]
    }
}
