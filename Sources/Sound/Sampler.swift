// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CFluidSynth
import FileOutput
import MIDIWire
import Synchronization
import Vocabulary
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A FluidSynth synthesizer with one SoundFont loaded and the configured filter,
/// delay and reverb; it plays MIDI channel messages.
///
/// A sampler makes no sound by itself: attach one output, a `LiveAudio` driver (paced by
/// the sound device) or a file renderer (offline, sample-exact to 64-frame blocks; the
/// tests' `AudioFileRenderer`), or let a `MixRenderer` render it. One output at a time.
///
/// Timing: FluidSynth applies every message at the start of its next 64-frame block
/// (1.45 ms at 44.1 kHz). With a file renderer, a message sent after
/// `render(toFrame: f)` sounds from frame `ceil(f / 64) × 64`.
///
/// Threads: all methods may be called from any thread (FluidSynth's
/// `synth.threadsafe-api` is on), e.g. `allNotesOff()` from a Ctrl-C handler while a
/// live driver's thread pulls audio.
///
/// Owns FluidSynth's settings and synth handles; `deinit` deletes the synth, then the
/// settings. Renderers and drivers keep their sampler alive, so they are always deleted first.
public final class Sampler: @unchecked Sendable {
    /// The configuration the sampler was created with.
    public let configuration: SamplerConfiguration
    /// Number of MIDI channels, numbered 0…`midiChannelCount − 1` (16 by default).
    public let midiChannelCount: Int
    /// Frames per FluidSynth block: events take effect on these boundaries (64).
    public static let blockSize = 64

    /// `fluid_settings_t *`, owned.
    let settings: OpaquePointer
    /// `fluid_synth_t *`, owned.
    let synth: OpaquePointer
    /// FluidSynth's id of the loaded SoundFont.
    let soundFontID: Int32
    /// The sampler whose loaded SoundFont this one plays (nil: it loaded its own). Kept
    /// alive as long as this sampler, which takes the SoundFont back out of its synth
    /// before deleting it (FluidSynth deletes every SoundFont still in a deleted synth).
    private let soundFontOwner: Sampler?
    /// The owner's `fluid_sfont_t *` when shared.
    private let borrowedFont: OpaquePointer?

    /// Deletes `synth`, first taking a borrowed SoundFont back out: it belongs to its owner,
    /// and FluidSynth deletes every SoundFont still in a deleted synth.
    private static func delete(_ synth: OpaquePointer, borrowed font: OpaquePointer?) {
        // Not kept: removing a borrowed SoundFont makes FluidSynth reset every channel and say
        // "No preset found" for each, of a synth that will play no more.
        _ = FluidLog.capturing {
            if let font { fluid_synth_remove_sfont(synth, font) }
            delete_fluid_synth(synth)
        }
    }
    /// Description of the attached output, if any.
    private let attachedOutput = Mutex<String?>(nil)

    /// Creates the synthesizer and loads `configuration.soundFont`.
    ///
    /// The SoundFont's header is checked first (`RIFF…sfbk`, length as announced), then
    /// FluidSynth reads its presets; a preset's samples are read when a channel selects it
    /// (dynamic sample loading, see below).
    /// Chorus is switched off; the reverb is switched off when `reverb` is nil.
    ///
    /// With `sharing`, the new synth plays the SoundFont already loaded by that sampler
    /// (which must use the same `soundFont` path) instead of loading it again: FluidSynth
    /// shares the sample data between synths anyway, but every load builds its own presets,
    /// instruments and zones, 11.7 MB for FluidR3_GM (measured: 172 → 185 MB for a second
    /// synth that loads it, 172 → 173 MB for one that shares it). The samplers of one mix
    /// share in this way; they may render on different threads, since a SoundFont is only
    /// read while playing (its samples' use counts, which FluidSynth keeps for unloading,
    /// are not atomic, so a count may come out wrong and the SoundFont is then not freed
    /// when the owner is deleted, at the end of the process).
    /// - Throws: `SoundError.invalidConfiguration` for a value out of range,
    ///   `.soundFontNotFound`, `.soundFontUnreadable`, `.notASoundFont`,
    ///   `.soundFontTruncated` or `.soundFontLoadFailed` for the SoundFont,
    ///   `.delayUnavailable` when the LADSPA delay cannot be set up, and
    ///   `.synthesizerFailed` when FluidSynth cannot create the synthesizer.
    public init(configuration: SamplerConfiguration, sharing owner: Sampler? = nil) throws(SoundError) {
        try configuration.validate()
        FluidLog.install()
        if let owner {
            precondition(owner.configuration.soundFont == configuration.soundFont, "a shared SoundFont must be the same file")
        } else {
            try SoundFontFile.validate(path: configuration.soundFont)
        }

        guard let settings = new_fluid_settings() else {
            throw .synthesizerFailed(operation: "create its settings (out of memory?)", messages: [])
        }
        var synthToDelete: OpaquePointer?
        var borrowedFont: OpaquePointer?
        var succeeded = false
        defer {
            if !succeeded {
                if let synthToDelete { Sampler.delete(synthToDelete, borrowed: borrowedFont) }
                delete_fluid_settings(settings)
            }
        }

        try Self.apply(configuration, to: settings)

        let (created, creationMessages) = FluidLog.capturing { new_fluid_synth(settings) }
        guard let synth = created else {
            throw .synthesizerFailed(operation: "create the synthesizer", messages: creationMessages)
        }
        synthToDelete = synth

        let path = configuration.soundFont
        let (loadedID, loadMessages) = FluidLog.capturing { () -> Int32 in
            guard let owner else { return PathBytes.withCString(path) { fluid_synth_sfload(synth, $0, 1) } }
            guard let font = fluid_synth_get_sfont_by_id(owner.synth, owner.soundFontID) else { return FLUID_FAILED }
            let id = fluid_synth_add_sfont(synth, font)
            if id != FLUID_FAILED { borrowedFont = font }
            return id
        }
        guard loadedID != FLUID_FAILED else {
            throw .soundFontLoadFailed(path: path, messages: loadMessages)
        }
        // A SoundFont that loads with warnings (samples FluidSynth ignores) still plays: say why
        // it may sound wrong. (The creation's messages are not kept: a synth is created before
        // any SoundFont is loaded, so FluidSynth says "No preset found" for every channel.)
        FluidLog.keep(loadMessages)

        Sampler.configureReverb(synth, configuration.reverb)
        if let filter = configuration.filter {
            try Sampler.configureFilter(synth, filter)
        }
        if let delay = configuration.delay {
            try Sampler.configureDelay(synth, delay)
        }

        self.configuration = configuration
        self.settings = settings
        self.synth = synth
        self.soundFontID = loadedID
        self.soundFontOwner = owner
        self.borrowedFont = borrowedFont
        self.midiChannelCount = Int(fluid_synth_count_midi_channels(synth))
        succeeded = true
    }

    /// Sets FluidSynth's settings for `configuration` (before the synth is created).
    private static func apply(_ configuration: SamplerConfiguration, to settings: OpaquePointer) throws(SoundError) {
        func set(_ name: String, _ value: Int) throws(SoundError) {
            if fluid_settings_setint(settings, name, Int32(value)) != FLUID_OK {
                throw .synthesizerFailed(operation: "set \(name) to \(value)", messages: [])
            }
        }
        func set(_ name: String, _ value: Double) throws(SoundError) {
            if fluid_settings_setnum(settings, name, value) != FLUID_OK {
                throw .synthesizerFailed(operation: "set \(name) to \(value)", messages: [])
            }
        }
        // Determinism: one rendering thread; the API stays thread-safe for live use.
        try set("synth.cpu-cores", 1)
        try set("synth.threadsafe-api", 1)
        try set("synth.sample-rate", configuration.sampleRate)
        try set("synth.polyphony", configuration.polyphony)
        try set("synth.gain", configuration.gain)
        try set("synth.chorus.active", 0)
        try set("synth.reverb.active", configuration.reverb == nil ? 0 : 1)
        // Only the samples of the presets in use are read (when a channel selects its
        // program): a render of `default` reads 23 MB of FluidR3_GM's 141 MB, starts 0.1 s
        // sooner, and 60 s of it peak at 94 MB instead of 211 MB. The samples are the same; FluidSynth
        // checks each one's loop on its own rather than in the whole sample chunk, which moves
        // some voice endings by a block (differences under −110 dBFS, measured).
        try set("synth.dynamic-sample-loading", 1)
        try set("audio.period-size", Sampler.blockSize)
        // The LADSPA host exists only if activated before new_fluid_synth.
        try set("synth.ladspa.active", configuration.delay == nil ? 0 : 1)
    }

    deinit {
        Sampler.delete(synth, borrowed: borrowedFont)
        delete_fluid_settings(settings)
    }

    // MARK: - Channel messages

    /// Selects preset `program` (0…127) of `bank` (0…16383; 128 = GM percussion kits) of
    /// the loaded SoundFont on `channel` (0…15). If the SoundFont has no such preset,
    /// the channel keeps its current one; check with `presetName(bank:program:)` first.
    public func select(channel: Int, bank: Int, program: Int) {
        checkChannel(channel)
        precondition((0...16383).contains(bank), "MIDI bank \(bank) is outside 0…16383")
        precondition((0...127).contains(program), "MIDI program \(program) is outside 0…127")
        guard presetName(bank: bank, program: program) != nil else { return }
        fluid_synth_program_select(synth, Int32(channel), soundFontID, Int32(bank), Int32(program))
    }

    /// The name of preset `program` in `bank` of the loaded SoundFont, or nil if it has none.
    public func presetName(bank: Int, program: Int) -> String? {
        guard let font = fluid_synth_get_sfont_by_id(synth, soundFontID),
              let preset = fluid_sfont_get_preset(font, Int32(bank), Int32(program)),
              let name = fluid_preset_get_name(preset)
        else { return nil }
        return String(cString: name)
    }

    /// Starts `note` (0…127, 60 = middle C) on `channel` (0…15) with `velocity` (1…127;
    /// 0 acts as a note-off). Sounds from the next 64-frame block boundary.
    /// FluidSynth keeps every note at least 10 ms (`synth.min-note-length`).
    public func noteOn(channel: Int, note: Int, velocity: Int) {
        checkChannel(channel)
        checkData(note, "note")
        checkData(velocity, "velocity")
        fluid_synth_noteon(synth, Int32(channel), Int32(note), Int32(velocity))
    }

    /// Releases `note` (0…127) on `channel` (0…15): it enters its release phase
    /// (held on while the sustain pedal, CC 64, is down). A note that is not sounding is ignored.
    public func noteOff(channel: Int, note: Int) {
        checkChannel(channel)
        checkData(note, "note")
        fluid_synth_noteoff(synth, Int32(channel), Int32(note))
    }

    /// Sends control change `controller` (0…127) with `value` (0…127) on `channel`
    /// (0…15), e.g. 7 = channel volume, 10 = pan, 91 = reverb send, 64 = sustain pedal.
    public func controlChange(channel: Int, controller: Int, value: Int) {
        checkChannel(channel)
        checkData(controller, "controller")
        checkData(value, "controller value")
        fluid_synth_cc(synth, Int32(channel), Int32(controller), Int32(value))
    }

    /// Plays a channel message: a note-on, note-off or control change on its channel (any
    /// other message is ignored).
    public func play(_ message: MIDIBytes) {
        switch message.meaning {
        case let .noteOn(note, velocity): noteOn(channel: message.channel, note: note, velocity: velocity)
        case let .noteOff(note): noteOff(channel: message.channel, note: note)
        case let .controlChange(controller, value): controlChange(channel: message.channel, controller: controller, value: value)
        case .other: break
        }
    }

    /// Releases every sounding note on every channel, including notes held by the
    /// sustain (CC 64) or sostenuto (CC 66) pedal, which are lifted. Notes fade out
    /// through their release phase; delay echoes and reverb ring out. Used on Ctrl-C.
    public func allNotesOff() {
        for channel in 0..<Int32(midiChannelCount) {
            fluid_synth_cc(synth, channel, 64, 0)
            fluid_synth_cc(synth, channel, 66, 0)
        }
        fluid_synth_all_notes_off(synth, -1)
    }

    private func checkChannel(_ channel: Int) {
        precondition((0..<midiChannelCount).contains(channel),
                     "MIDI channel \(channel) is outside 0…\(midiChannelCount - 1)")
    }

    private func checkData(_ value: Int, _ name: String) {
        precondition((0...127).contains(value), "MIDI \(name) \(value) is outside 0…127")
    }

    // MARK: - Output attachment

    /// Reserves the sampler's single output for `description`.
    func attachOutput(_ description: String) throws(SoundError) {
        let attached = attachedOutput.withLock { current -> Bool in
            guard current == nil else { return false }
            current = description
            return true
        }
        if !attached { throw .outputInUse(requested: description) }
    }

    /// Frees the sampler's output for another renderer or driver.
    func detachOutput() {
        attachedOutput.withLock { $0 = nil }
    }

    // MARK: - Effects

    private static func configureReverb(_ synth: OpaquePointer, _ reverb: Reverb?) {
        guard let reverb else {
            fluid_synth_reverb_on(synth, -1, 0)
            return
        }
        fluid_synth_reverb_on(synth, -1, 1)
        fluid_synth_set_reverb_group_roomsize(synth, -1, reverb.roomSize)
        fluid_synth_set_reverb_group_damp(synth, -1, reverb.damping)
        fluid_synth_set_reverb_group_width(synth, -1, reverb.width)
        fluid_synth_set_reverb_group_level(synth, -1, reverb.level)
    }

    /// FluidSynth's custom IIR filter: its cutoff generator has no SoundFont value and
    /// defaults to 0, so the per-channel generator offset is the absolute cutoff in
    /// absolute cents (8.176 Hz × 2^(cents/1200)); Q is in centibels.
    private static func configureFilter(_ synth: OpaquePointer, _ filter: LowPassFilter) throws(SoundError) {
        let cents = 6900 + 1200 * log2(filter.cutoff / 440)
        let centibels = filter.resonance * 10
        let (result, messages) = FluidLog.capturing { () -> Int32 in
            var result = fluid_synth_set_custom_filter(synth, Int32(FLUID_IIR_LOWPASS.rawValue), 0)
            for channel in 0..<fluid_synth_count_midi_channels(synth) where result == FLUID_OK {
                result = fluid_synth_set_gen(synth, channel, Int32(GEN_CUSTOM_FILTERFC.rawValue), Float(cents))
                if result == FLUID_OK {
                    result = fluid_synth_set_gen(synth, channel, Int32(GEN_CUSTOM_FILTERQ.rawValue), Float(centibels))
                }
            }
            return result
        }
        if result != FLUID_OK {
            throw .synthesizerFailed(operation: "set up the low-pass filter", messages: messages)
        }
        FluidLog.keep(messages)
    }

    /// Where Debian and others install the `cmt` LADSPA plugins.
    static let delayPluginCandidates = [
        "/usr/lib/ladspa/cmt.so",
        "/usr/lib/x86_64-linux-gnu/ladspa/cmt.so",
        "/usr/lib/aarch64-linux-gnu/ladspa/cmt.so",
        "/usr/local/lib/ladspa/cmt.so",
        "/usr/lib64/ladspa/cmt.so",
    ]

    private static func configureDelay(_ synth: OpaquePointer, _ delay: Delay) throws(SoundError) {
        guard let fx = fluid_synth_get_ladspa_fx(synth) else {
            throw .delayUnavailable(reason: "this FluidSynth was built without LADSPA support")
        }
        var candidates = delayPluginCandidates
        if let variable = getenv("LADSPA_PATH") {
            let directories = String(cString: variable).split(separator: ":").map(String.init)
            candidates = directories.map { $0 + "/cmt.so" } + candidates
        }
        guard let plugin = candidates.first(where: SoundFontLocator.fileExists) else {
            throw .delayUnavailable(
                reason: "the cmt LADSPA plugin library was not found at " + candidates.joined(separator: ", "))
        }
        // The shortest of cmt's feedback delays that holds `time`: its buffer (a power of two
        // of at least max × rate samples per channel) is 256 KB at 44.1 kHz for 1 s against
        // 1 MB for 5 s, and the echoes are the same, since the delay reads at the same offset.
        let label = delay.time <= 1 ? "fbdelay_1s" : "fbdelay_5s"
        let (failure, messages) = FluidLog.capturing { () -> String? in
            for (effect, port) in [("clumsy_delay_left", "Main:L"), ("clumsy_delay_right", "Main:R")] {
                if fluid_ladspa_add_effect(fx, effect, plugin, label) != FLUID_OK {
                    return "could not load the plugin \(label) from \(plugin)"
                }
                if fluid_ladspa_effect_link(fx, effect, "Input", port) != FLUID_OK
                    || fluid_ladspa_effect_link(fx, effect, "Output", port) != FLUID_OK {
                    return "could not connect \(label) to \(port)"
                }
                let controls: [(String, Double)] = [
                    ("Delay (Seconds)", delay.time), ("Dry/Wet Balance", delay.mix), ("Feedback", delay.feedback),
                ]
                for (control, value) in controls
                where fluid_ladspa_effect_set_control(fx, effect, control, Float(value)) != FLUID_OK {
                    return "could not set the control \"\(control)\" of \(label)"
                }
            }
            var report = [CChar](repeating: 0, count: 512)
            if fluid_ladspa_check(fx, &report, Int32(report.count)) != FLUID_OK {
                return "the effect chain is invalid: " + String(decoding: report.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            if fluid_ladspa_activate(fx) != FLUID_OK {
                return "the LADSPA host could not be activated"
            }
            return nil
        }
        if let failure {
            let detail = messages.isEmpty ? "" : " (FluidSynth said: " + messages.joined(separator: "; ") + ")"
            throw .delayUnavailable(reason: failure + detail)
        }
        FluidLog.keep(messages)
    }
}
