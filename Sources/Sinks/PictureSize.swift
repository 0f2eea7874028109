// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors

/// A picture or video size in pixels, parsed from `WIDTHxHEIGHT`.
public struct PictureSize: Sendable, Equatable {
    /// Width, pixels.
    public var width: Int
    /// Height, pixels.
    public var height: Int

    /// Accepted widths.
    public static let widths = 64...3840
    /// Accepted heights.
    public static let heights = 64...2160
    /// The default, 1280×720.
    public static let standard = PictureSize(width: 1280, height: 720)

    /// Creates a size (unchecked).
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses `1280x720` (or `1280×720`), checking 64×64…3840×2160; the error names `flag`.
    public init(parsing text: String, flag: String = "--size") throws(SessionError) {
        let parts = text.lowercased().split(omittingEmptySubsequences: false, whereSeparator: { $0 == "x" || $0 == "×" })
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else {
            throw .usage("\(flag) \(text) is not a size; expected WIDTHxHEIGHT in pixels, e.g. 1280x720")
        }
        guard Self.widths.contains(w), Self.heights.contains(h) else {
            throw .usage("\(flag) \(text) is out of range; accepted: 64x64…3840x2160 pixels")
        }
        self.init(width: w, height: h)
    }
}
