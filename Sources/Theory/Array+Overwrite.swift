// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

extension Array {
    /// Makes this array hold `other`'s elements in its own buffer: nothing is allocated while
    /// its capacity holds them and the buffer is this array's alone, where an assignment would
    /// share `other`'s buffer and the next change of either would copy it. For a real-time
    /// caller saving and restoring state (the LV2 plugin's form returns).
    public mutating func overwrite(with other: [Element]) {
        removeAll(keepingCapacity: true)
        append(contentsOf: other)
    }
}
