// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Presets
import Vocabulary
#if canImport(Glibc)
import Glibc
#endif

/// The sound of a session, resolved once with the rest of the plan (`SessionPlan.sound`): the
/// effects that are on, with their values (the delay in seconds at the session's tempo, a note
/// value already turned into them), the synthesizer's gains, the mastering targets and the
/// sample format. What plays and writes the sound reads this, never the preset.
public struct SoundPlan: Sendable, Equatable {
    /// The SoundFont the preset names, or nil to search the standard places.
    public var soundFont: String?
    /// The low-pass filter, or nil when off.
    public var filter: LowPassFilter?
    /// The delay, or nil when off.
    public var delay: Delay?
    /// The reverb, or nil when off.
    public var reverb: Reverb?
    /// Master gain of the synthesizer.
    public var gain: Double
    /// dB added to the synthesizer's gain when playing live (measured for each bundled preset).
    public var liveGain: Double
    /// Integrated loudness of an audio render, LUFS, or nil to write the synthesizers' level.
    public var loudness: Double?
    /// True-peak ceiling of an audio render, dBTP (with the loudness on).
    public var truePeak: Double
    /// Sample format of WAV and FLAC renders.
    public var bitDepth: BitDepth

    /// The sound of a resolved preset (its flags applied, its delay note value in seconds).
    public init(_ sound: Preset.Sound) {
        soundFont = sound.soundFont
        filter = sound.filter
        delay = sound.delay
        reverb = sound.reverb
        gain = sound.gain
        liveGain = sound.liveGain
        loudness = sound.loudness
        truePeak = sound.truePeak
        bitDepth = sound.bitDepth
    }

    /// The standard MIDI controllers that carry these settings into a MIDI file, per channel:
    /// CC91 reverb send (level × 127), CC93 chorus send 0; with the filter on, CC74 brightness
    /// (cutoff on a logarithmic 20 Hz…20 kHz scale) and CC71 resonance (64 + dB × 63/20). The
    /// delay has no standard controller.
    public var controllers: [(UInt8, UInt8)] {
        var list: [(UInt8, UInt8)] = []
        list.append((91, UInt8(((reverb?.level ?? 0) * 127).rounded())))
        list.append((93, 0))
        if let filter {
            let brightness = 127 * log(filter.cutoff / 20) / log(1000)
            list.append((74, UInt8(min(127, max(0, brightness.rounded())))))
            list.append((71, UInt8(min(127, max(0, (64 + filter.resonance * 63 / 20).rounded())))))
        }
        return list
    }
}
