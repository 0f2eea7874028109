// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// The variable-length quantity (VLQ) used for delta times and lengths in
/// Standard MIDI Files: 7 bits per byte, most significant group first, the
/// high bit set on every byte but the last; at most 4 bytes (values up to
/// 0x0FFFFFFF).
public enum MIDIVariableLengthQuantity {
    /// The largest encodable value, 0x0FFFFFFF (268,435,455).
    public static let maximum: UInt32 = 0x0FFF_FFFF

    /// The encoding of `value` (1…4 bytes). `value` must be ≤ `maximum` (precondition).
    public static func encode(_ value: UInt32) -> [UInt8] {
        var bytes: [UInt8] = []
        encode(value, into: &bytes)
        return bytes
    }

    /// Appends the encoding of `value` (≤ `maximum`, precondition) to `bytes`.
    public static func encode(_ value: UInt32, into bytes: inout [UInt8]) {
        precondition(value <= maximum, "variable-length quantity \(value) exceeds 0x0FFFFFFF")
        if value >= 1 << 21 { bytes.append(UInt8(truncatingIfNeeded: value >> 21) | 0x80) }
        if value >= 1 << 14 { bytes.append(UInt8(truncatingIfNeeded: value >> 14) | 0x80) }
        if value >= 1 << 7 { bytes.append(UInt8(truncatingIfNeeded: value >> 7) | 0x80) }
        bytes.append(UInt8(truncatingIfNeeded: value) & 0x7F)
    }

    /// Decodes a quantity starting at `offset` in `bytes`.
    /// - Returns: the value and the number of bytes it used, or nil if the
    ///   bytes end before the quantity does or it is longer than 4 bytes.
    public static func decode(_ bytes: [UInt8], at offset: Int) -> (value: UInt32, length: Int)? {
        guard offset >= 0 else { return nil }
        var value: UInt32 = 0
        var index = offset
        while index < bytes.count && index - offset < 4 {
            let byte = bytes[index]
            value = (value << 7) | UInt32(byte & 0x7F)
            index += 1
            if byte & 0x80 == 0 { return (value, index - offset) }
        }
        return nil
    }
}
