// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// A resonant 12 dB/octave low-pass filter applied to every voice of every channel.
///
/// `Sound` implements it with FluidSynth's custom IIR filter (`fluid_synth_set_custom_filter`
/// plus the `GEN_CUSTOM_FILTERFC`/`GEN_CUSTOM_FILTERQ` generators). That filter is not
/// part of any SoundFont, so the generator value is absolute: the cutoff comes out in
/// Hz exactly as given, whatever the instrument's own filter does (the instrument's
/// filter stays in place, in series). FluidSynth clamps the cutoff to at most
/// 0.45 × the sample rate (19 845 Hz at 44.1 kHz).
public struct LowPassFilter: Sendable, Hashable, Codable {
    /// Cutoff frequency in Hz, 20…20 000. At `resonance` 0 the response is 3 dB down here.
    public var cutoff: Double
    /// Height of the resonance peak at the cutoff, in dB, 0…20 (default 0 = no peak).
    ///
    /// Negative values are not possible: FluidSynth clips the SoundFont filter Q to
    /// 0…96 dB. Following the SoundFont 2.01 specification, FluidSynth lowers the
    /// pass-band gain by half the peak height (and by 1.5 dB less than that at 0 dB, so
    /// the pass band at resonance 0 is +1.5 dB).
    public var resonance: Double

    /// A low-pass filter with `cutoff` in Hz and `resonance` in dB.
    public init(cutoff: Double, resonance: Double = 0) {
        self.cutoff = cutoff
        self.resonance = resonance
    }

    /// Accepted cutoff range in Hz.
    public static let cutoffRange: ClosedRange<Double> = 20...20_000
    /// Accepted resonance range in dB.
    public static let resonanceRange: ClosedRange<Double> = 0...20
}

/// A feedback echo on the whole mix (before the reverb, so the reverb is not echoed).
///
/// `Sound` implements it with FluidSynth's LADSPA host and the `fbdelay_1s` plugin (`fbdelay_5s`
/// for times over a second) of the `cmt` collection (`/usr/lib/ladspa/cmt.so`, Debian package `cmt`): one mono instance on
/// each of the left and right main outputs. Echo *n* (n ≥ 1) arrives `n × time`
/// seconds after the sound, with amplitude `mix × feedbackⁿ⁻¹` relative to it.
public struct Delay: Sendable, Hashable, Codable {
    /// Delay time in seconds, 0…5 (the plugin's buffer holds 5 s).
    public var time: Double
    /// Fraction of each echo fed back into the next one, 0…0.95 (0 = a single echo).
    public var feedback: Double
    /// Dry/wet balance, 0…1: 0 = only the dry signal (no echo), 1 = only the echoes.
    public var mix: Double

    /// A delay of `time` seconds with `feedback` (0…0.95) and wet `mix` (0…1).
    public init(time: Double, feedback: Double, mix: Double) {
        self.time = time
        self.feedback = feedback
        self.mix = mix
    }

    /// Accepted delay time in seconds.
    public static let timeRange: ClosedRange<Double> = 0...5
    /// Accepted feedback factor.
    public static let feedbackRange: ClosedRange<Double> = 0...0.95
    /// Accepted wet mix.
    public static let mixRange: ClosedRange<Double> = 0...1
}

/// A reverb on the mix: in `Sound`, FluidSynth's built-in reverb, set for all effect groups
/// through the 2.x group API (`fluid_synth_set_reverb_group_*`).
///
/// How much of each channel reaches the reverb is that channel's reverb send: the
/// instrument's own send plus MIDI CC 91 (default 0; send CC 91 = 127 through
/// `Sampler.controlChange` for the most reverb).
public struct Reverb: Sendable, Hashable, Codable {
    /// Output level of the reverb, 0…1.
    public var level: Double
    /// Room size, 0…1; larger rooms decay longer (about 0.9 s at 0.2, 5 s at 0.9, 12 s at 1.0 to −60 dB).
    public var roomSize: Double
    /// High-frequency damping, 0…1 (default 0.3).
    public var damping: Double = 0.3
    /// Stereo width, 0…1 (default 0.8).
    public var width: Double = 0.8

    /// A reverb with `level`, `roomSize`, `damping` and `width`, all 0…1.
    public init(level: Double, roomSize: Double, damping: Double = 0.3, width: Double = 0.8) {
        self.level = level
        self.roomSize = roomSize
        self.damping = damping
        self.width = width
    }

    /// Accepted range of every reverb parameter.
    public static let parameterRange: ClosedRange<Double> = 0...1
}
