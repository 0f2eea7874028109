// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// How each sample of a WAV or FLAC file is stored (`sound.bitDepth`, `--bit-depth`).
public enum BitDepth: String, Sendable, CaseIterable, Hashable {
    /// 16-bit integers, with TPDF dither (±1 LSB triangular noise) before rounding.
    case int16 = "16"
    /// 24-bit integers, rounded (the rounding error, −144 dBFS, is far below any dither).
    case int24 = "24"
    /// 32-bit IEEE floats, as rendered (WAV only: FLAC stores integers).
    case float32 = "32f"

    /// The default: 24-bit.
    public static let standard = BitDepth.int24

    /// Bytes per sample in a WAV file.
    public var bytesPerSample: Int {
        switch self {
        case .int16: return 2
        case .int24: return 3
        case .float32: return 4
        }
    }
}
