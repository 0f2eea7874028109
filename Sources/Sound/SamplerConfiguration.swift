// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Vocabulary
#if canImport(Glibc)
import Glibc
#endif

/// Everything a `Sampler` needs to start: the SoundFont, the audio format, the voice
/// budget and the effects.
public struct SamplerConfiguration: Sendable, Hashable, Codable {
    /// Path of the SoundFont (.sf2 or .sf3) to load; see `SoundFontLocator` to find one.
    public var soundFont: String
    /// Output sample rate in Hz, 8000…96 000 (FluidSynth 2.3's range); default 44 100.
    public var sampleRate: Double = 44_100
    /// Maximum number of simultaneous voices (1…65 535, default 256). A note may use
    /// several voices (layers, stereo samples). Beyond this, FluidSynth steals a voice by
    /// its overflow score: voices already released go first, then voices held only by
    /// the sustain pedal, then the quietest and oldest; percussion-channel voices are
    /// protected longest.
    public var polyphony: Int = 256
    /// Low-pass filter on every voice; nil = off.
    public var filter: LowPassFilter?
    /// Feedback delay on the mix; nil = off (and the LADSPA host is not started).
    public var delay: Delay?
    /// Reverb; nil = off (FluidSynth's reverb unit is disabled).
    public var reverb: Reverb?
    /// Master gain applied by FluidSynth to the summed voices, 0…10 (default 0.5).
    /// FluidSynth's own default is 0.2; values much above 1 clip when many notes sound.
    public var gain: Double = 0.5
    /// Seconds rendered after the session's end, 0…`maximumTailDuration` (`--tail`), in place
    /// of `tailDuration`'s estimate; nil: the estimate.
    public var tail: Double?

    /// A configuration; only `soundFont` has no default.
    public init(
        soundFont: String,
        sampleRate: Double = 44_100,
        polyphony: Int = 256,
        filter: LowPassFilter? = nil,
        delay: Delay? = nil,
        reverb: Reverb? = nil,
        gain: Double = 0.5
    ) {
        self.soundFont = soundFont
        self.sampleRate = sampleRate
        self.polyphony = polyphony
        self.filter = filter
        self.delay = delay
        self.reverb = reverb
        self.gain = gain
    }

    /// Accepted sample rates in Hz (FluidSynth 2.3's `synth.sample-rate` range).
    public static let sampleRateRange: ClosedRange<Double> = 8_000...96_000
    /// Accepted polyphony in voices.
    public static let polyphonyRange: ClosedRange<Int> = 1...65_535
    /// Accepted master gain.
    public static let gainRange: ClosedRange<Double> = 0...10
    /// Upper bound of `tailDuration` in seconds.
    public static let maximumTailDuration: Double = 30
    /// Seconds allowed for the release phase of SoundFont instruments after the last note-off.
    public static let releaseAllowance: Double = 2

    /// Seconds to keep rendering after the last event so that released notes, delay
    /// echoes and the reverb die away, at most `maximumTailDuration` (30 s); `tail` when set.
    ///
    /// `tailDuration = min(30, release + echoes + reverb)` where
    /// - `release` = 2 s for the instruments' release phase;
    /// - `echoes` = `delay.time × ceil(ln 0.001 / ln delay.feedback)`: the time until an
    ///   echo falls below −60 dB (one echo when feedback is 0; 0 without a delay);
    /// - `reverb` = `0.04 s × ln 0.001 / ln(0.7 + 0.28 × roomSize)`: the −60 dB decay of
    ///   FluidSynth's reverb, whose loop gain is 0.7 + 0.28 × room size and whose longest
    ///   loop is about 40 ms (measured: 0.9 s at room 0.2, 5 s at 0.9, 12 s at 1.0);
    ///   0 without a reverb or at level 0.
    /// The result grows monotonically with delay time, delay feedback and room size.
    public var tailDuration: Double {
        if let tail { return min(Self.maximumTailDuration, max(0, tail)) }
        var tail = Self.releaseAllowance
        if let delay, delay.time > 0 {
            let feedback = min(max(delay.feedback, 0), 1)
            let echoes: Double
            if feedback <= 0 {
                echoes = 1
            } else if feedback >= 1 {
                echoes = .infinity
            } else {
                echoes = max(1, (log(0.001) / log(feedback)).rounded(.up))
            }
            tail += delay.time * echoes
        }
        if let reverb, reverb.level > 0 {
            let room = min(max(reverb.roomSize, 0), 1)
            let loopGain = 0.7 + 0.28 * room
            tail += 0.04 * log(0.001) / log(loopGain)
        }
        guard tail.isFinite else { return Self.maximumTailDuration }
        return min(Self.maximumTailDuration, tail)
    }

    /// Checks every value against its accepted range.
    /// - Throws: `SoundError.invalidConfiguration` naming the first field out of range.
    public func validate() throws(SoundError) {
        func check(_ field: String, _ value: Double, _ range: ClosedRange<Double>, _ unit: String) throws(SoundError) {
            guard value.isFinite, range.contains(value) else {
                throw .invalidConfiguration(
                    field: field, value: format(value),
                    accepted: "\(format(range.lowerBound))…\(format(range.upperBound))\(unit)")
            }
        }
        if soundFont.isEmpty {
            throw .invalidConfiguration(field: "soundFont", value: "\"\"", accepted: "the path of an .sf2 or .sf3 file")
        }
        try check("sampleRate", sampleRate, Self.sampleRateRange, " Hz")
        guard Self.polyphonyRange.contains(polyphony) else {
            throw .invalidConfiguration(
                field: "polyphony", value: String(polyphony),
                accepted: "\(Self.polyphonyRange.lowerBound)…\(Self.polyphonyRange.upperBound) voices")
        }
        try check("gain", gain, Self.gainRange, "")
        if let filter {
            try check("filter.cutoff", filter.cutoff, LowPassFilter.cutoffRange, " Hz")
            try check("filter.resonance", filter.resonance, LowPassFilter.resonanceRange, " dB")
        }
        if let delay {
            try check("delay.time", delay.time, Delay.timeRange, " s")
            try check("delay.feedback", delay.feedback, Delay.feedbackRange, "")
            try check("delay.mix", delay.mix, Delay.mixRange, "")
        }
        if let reverb {
            try check("reverb.level", reverb.level, Reverb.parameterRange, "")
            try check("reverb.roomSize", reverb.roomSize, Reverb.parameterRange, "")
            try check("reverb.damping", reverb.damping, Reverb.parameterRange, "")
            try check("reverb.width", reverb.width, Reverb.parameterRange, "")
        }
    }
}

private func format(_ value: Double) -> String {
    if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
        return String(Int64(value))
    }
    return String(value)
}
