// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// How a voice is placed between the loudspeakers.
public enum Pan: Sendable, Hashable {
    /// A fixed place, −1 (left) … 0 (centre) … 1 (right).
    case fixed(Double)
    /// Each note placed by the position of what was struck (the keys, left to right): the
    /// voice plays on one channel per pan zone (see `Voice.spread` in Performance).
    case position
}
