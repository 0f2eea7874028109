import CEBUR128
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// EBU R128 / ITU-R BS.1770 loudness of a stereo stream, measured by libebur128
/// (integrated loudness from its histogram, so memory stays flat however long the
/// stream; optionally the true peak, 4× oversampled). Owns the `ebur128_state`.
final class LoudnessMeter: @unchecked Sendable {
    private var state: UnsafeMutablePointer<ebur128_state>?
    let measuresTruePeak: Bool

    /// A meter for interleaved stereo at `sampleRate` Hz.
    init(sampleRate: Double, truePeak: Bool) throws(SoundError) {
        var mode = EBUR128_MODE_I.rawValue | EBUR128_MODE_HISTOGRAM.rawValue
        if truePeak { mode |= EBUR128_MODE_TRUE_PEAK.rawValue }
        guard let created = ebur128_init(2, UInt(sampleRate.rounded()), Int32(bitPattern: mode)) else {
            throw .synthesizerFailed(operation: "start the loudness meter (libebur128)", messages: [])
        }
        state = created
        measuresTruePeak = truePeak
    }

    deinit {
        ebur128_destroy(&state)
    }

    /// Adds interleaved stereo frames (full scale ±1).
    func add(_ samples: UnsafeBufferPointer<Float>) {
        guard samples.count >= 2 else { return }
        ebur128_add_frames_float(state, samples.baseAddress, samples.count / 2)
    }

    /// Integrated loudness in LUFS; −infinity for silence.
    var integratedLoudness: Double {
        var value = -Double.infinity
        if ebur128_loudness_global(state, &value) != EBUR128_SUCCESS.rawValue { return -.infinity }
        return value
    }

    /// True peak over both channels in dBTP (−infinity for silence); needs `truePeak: true`.
    var truePeak: Double {
        var peak = 0.0
        for channel in 0..<UInt32(2) {
            var value = 0.0
            if ebur128_true_peak(state, channel, &value) == EBUR128_SUCCESS.rawValue { peak = max(peak, value) }
        }
        return peak > 0 ? 20 * log10(peak) : -.infinity
    }
}
