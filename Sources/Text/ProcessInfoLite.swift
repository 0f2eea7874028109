// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import FileOutput
import Glibc

/// The process environment without Foundation.
public enum ProcessInfoLite {
    /// Environment variables of this process.
    public static var environment: [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = PathBytes.string(UnsafeRawBufferPointer(start: entry, count: strlen(entry)))
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }
}
