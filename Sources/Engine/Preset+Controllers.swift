// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Presets
#if canImport(Glibc)
import Glibc
#endif

extension Preset.Sound {
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
