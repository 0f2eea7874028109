#if canImport(Glibc)
import Glibc
#endif

/// The effect settings of a session after flags are applied (nil = that effect is off).
public struct SoundSettings: Sendable, Equatable {
    /// Low-pass cutoff (Hz) and resonance (dB).
    public var filter: (cutoff: Double, resonance: Double)?
    /// Delay time (s), feedback (0…0.95) and wet mix (0…1).
    public var delay: (time: Double, feedback: Double, mix: Double)?
    /// Reverb level and room size (0…1).
    public var reverb: (level: Double, room: Double)?

    /// Settings from a preset's sound block.
    public init(_ sound: Preset.Sound) {
        filter = sound.filter
        delay = sound.delay
        reverb = sound.reverb
    }

    public static func == (a: SoundSettings, b: SoundSettings) -> Bool {
        a.filter?.cutoff == b.filter?.cutoff && a.filter?.resonance == b.filter?.resonance
            && a.delay?.time == b.delay?.time && a.delay?.feedback == b.delay?.feedback && a.delay?.mix == b.delay?.mix
            && a.reverb?.level == b.reverb?.level && a.reverb?.room == b.reverb?.room
    }

    /// The standard MIDI controllers that carry these settings into a MIDI file, per channel:
    /// CC91 reverb send (level × 127); with the filter on, CC74 brightness (cutoff on a
    /// logarithmic 20 Hz…20 kHz scale) and CC71 resonance (64 + dB × 63/20). The delay has no
    /// standard controller.
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
