// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import Geometry
import Physics
import Presets
import Text
#if canImport(Glibc)
import Glibc
#endif

/// The geometry of a session in metres, built from a preset: areas, bouncers, keys, starts.
public struct Layout: Sendable, Equatable {
    /// The bass area (the original's left half below the divider at y = 700 points).
    public var bassArea: Rect
    /// The piano area (the original's right half).
    public var pianoArea: Rect
    /// One bouncer per switched-on degree; `tag` is the degree 1…7.
    public var bouncers: [CircleObstacle]
    /// The keys left to right; `tag` is the key number 1…K.
    public var keys: [KeyObstacle]
    /// Bass ball start.
    public var bassStart: Vector
    /// Piano ball starts.
    public var pianoStarts: [Vector]
    /// Region where piano balls are (re)dropped.
    public var dropRegion: Rect
    /// Silent boxes closing the gaps between the keys (and between the keys and the walls)
    /// at the keys' height, so no ball can wedge into a gap.
    public var fillers: [Rect]

    /// Builds the layout of `preset`; `seed` drives the scatter layout and ball placement.
    public static func make(_ preset: Preset, seed: UInt64) throws(SessionError) -> Layout {
        let s = Preset.metresPerPoint
        let bassArea = Rect(minX: 0, minY: 0, maxX: 512 * s, maxY: 700 * s)
        let pianoArea = Rect(minX: 512 * s, minY: 0, maxX: 1024 * s, maxY: 768 * s)
        let radius = preset.bass.bouncerRadius
        // The tonic's bouncer is `bass.home` times larger (the ball comes home more often).
        var radii = [Int: Double](uniqueKeysWithValues: (1...7).map { ($0, radius) })
        radii[1] = radius * preset.bass.home

        let centres = try bouncerCentres(preset, radii: radii, in: bassArea, seed: seed)
        let bouncers = preset.bass.bouncers.sorted().map { CircleObstacle(tag: $0, center: centres[$0]!, radius: radii[$0]!) }

        // Bass ball start: the original's (256, 192) points; it must not sit inside a bouncer.
        var bassStart = Vector(256 * s, 192 * s)
        if preset.layout != .original {
            bassStart = freeSpot(in: bassArea, avoiding: bouncers, radius: preset.bass.radius) ?? bassStart
        }
        if bouncers.contains(where: { ($0.center - bassStart).length < $0.radius + preset.bass.radius }) {
            guard let spot = freeSpot(in: bassArea, avoiding: bouncers, radius: preset.bass.radius) else {
                throw .preset(file: preset.source, field: "bass.bouncerRadius", message: "the bouncers leave no room for the bass ball; use a smaller bouncer or ball radius")
            }
            bassStart = spot
        }

        // Every switched-on bouncer must be reachable: a ball too big for the gaps between
        // bouncers (or between a bouncer and a wall) would be shut in a pocket for good. (The
        // scatter layout refuses tight places above; the rings are spaced for the ball.)
        let unreachable = preset.layout != .scatter
            ? unreachableBouncers(bouncers, in: bassArea, from: bassStart, ballRadius: preset.bass.radius) : []
        guard unreachable.isEmpty else {
            let names = unreachable.map { "\($0)" }.joined(separator: ", ")
            throw .preset(file: preset.source, field: "bass.radius",
                          message: "a bass ball of radius \(Format.plain(preset.bass.radius)) m cannot pass between bouncers of radius \(Format.plain(radius)) m in the \(preset.layout.rawValue) layout, so it never reaches degree \(names); use a smaller ball or bouncer radius")
        }

        let count = preset.keys.tones.isEmpty ? 4 : preset.keys.tones.count   // empty: resolved by Configuration; 4 before that
        let keyHeight = 25 * s
        let keys = Self.keys(count: count, in: pianoArea)

        // Piano balls on a shuffled grid in the upper half, filling downwards if needed.
        let r = preset.piano.radius
        let dropRegion = Rect(minX: pianoArea.minX + r, minY: pianoArea.minY + 0.5 * pianoArea.height,
                              maxX: pianoArea.maxX - r, maxY: pianoArea.maxY - r)
        var rng = SplitMix64(seed: seed, stream: RandomStream.spawn.rawValue)
        let starts = try spawnPoints(count: preset.piano.count, radius: r, pianoArea: pianoArea,
                                     floor: keyHeight, rng: &rng, presetName: preset.source)
        let fillers = Self.fillers(between: keys, in: pianoArea, height: keyHeight)
        return Layout(bassArea: bassArea, pianoArea: pianoArea, bouncers: bouncers, keys: keys,
                      bassStart: bassStart, pianoStarts: starts, dropRegion: dropRegion, fillers: fillers)
    }

    /// The centre of each degree's bouncer in `bassArea` for the preset's layout; `seed`
    /// places the scatter layout, which refuses bouncers that do not fit.
    static func bouncerCentres(_ preset: Preset, radii: [Int: Double], in bassArea: Rect, seed: UInt64) throws(SessionError) -> [Int: Vector] {
        let s = Preset.metresPerPoint
        let radius = preset.bass.bouncerRadius
        var centres: [Int: Vector] = [:]
        switch preset.layout {
        case .original:
            let points: [Int: (Double, Double)] = [1: (256, 344), 2: (0, 700), 3: (512, 700), 4: (0, 344),
                                                   5: (512, 344), 6: (0, 0), 7: (512, 0)]
            for (degree, p) in points { centres[degree] = Vector(p.0 * s, p.1 * s) }
        case .ring:
            centres = ring(order: Array(1...7), radii: radii, ballRadius: preset.bass.radius, in: bassArea)
        case .fifths:
            centres = fifthsRing(radii: radii, ballRadius: preset.bass.radius, in: bassArea)
        case .scatter:
            var rng = SplitMix64(seed: seed, stream: RandomStream.layout.rawValue)
            let gap = 2 * radius * preset.bass.home + 2.2 * preset.bass.radius   // the bass ball fits between any two
            for degree in 1...7 {
                var placed = false
                for _ in 0..<2000 {
                    let candidate = Vector(rng.uniform((bassArea.minX + radius)...(bassArea.maxX - radius)),
                                           rng.uniform((bassArea.minY + radius)...(bassArea.maxY - radius)))
                    if centres.values.allSatisfy({ ($0 - candidate).length >= gap }) {
                        centres[degree] = candidate
                        placed = true
                        break
                    }
                }
                guard placed else { throw scatterRefusal(preset) }
            }
        }
        return centres
    }

    /// Bouncers that do not fit the scatter layout: the field to change is the tonic's
    /// `bass.home` when it is what made the bouncers too big together.
    private static func scatterRefusal(_ preset: Preset) -> SessionError {
        let radius = Format.plain(preset.bass.bouncerRadius)
        guard preset.bass.home > 1 else {
            return .preset(file: preset.source, field: "bass.bouncerRadius", message: "bouncers of radius \(radius) m do not fit the scatter layout; try a smaller radius")
        }
        return .preset(file: preset.source, field: "bass.home",
                       message: "bouncers of radius \(radius) m, the tonic's \(Format.plain(preset.bass.home)) times larger, do not fit the scatter layout; try a smaller bass.home or bass.bouncerRadius")
    }

    /// The keys: the original's four at x = 573, 703, 833, 961 points (124 × 25) or `count`
    /// evenly spread, narrower when more than four share the piano area (five 124-point keys
    /// would overlap and overhang it).
    static func keys(count: Int, in pianoArea: Rect) -> [KeyObstacle] {
        let s = Preset.metresPerPoint
        let keyWidth = min(124 * s, pianoArea.width / Double(count))
        let keyHeight = 25 * s
        return (0..<count).map { index in
            let centreX = count == 4 ? [573.0, 703, 833, 961][index] * s
                : pianoArea.minX + (Double(index) + 0.5) * pianoArea.width / Double(count)
            return KeyObstacle(tag: index + 1, frame: Rect(minX: centreX - keyWidth / 2, minY: 0,
                                                           maxX: centreX + keyWidth / 2, maxY: keyHeight))
        }
    }

    /// Silent boxes closing the gaps between `keys` (and between the keys and the walls) up to `keyHeight`.
    static func fillers(between keys: [KeyObstacle], in pianoArea: Rect, height keyHeight: Double) -> [Rect] {
        var fillers: [Rect] = []
        var left = pianoArea.minX
        for key in keys.sorted(by: { $0.frame.minX < $1.frame.minX }) {
            if key.frame.minX > left { fillers.append(Rect(minX: left, minY: 0, maxX: key.frame.minX, maxY: keyHeight)) }
            left = max(left, key.frame.maxX)
        }
        if pianoArea.maxX > left { fillers.append(Rect(minX: left, minY: 0, maxX: pianoArea.maxX, maxY: keyHeight)) }
        return fillers
    }

    /// The `fifths` layout's order around the ring, clockwise from the top: each next degree a
    /// fifth below (a fourth above) the last, so neighbours are a fifth apart: I IV vii iii vi ii V.
    public static let fifthsOrder = [1, 4, 7, 3, 6, 2, 5]

    /// Centres for seven bouncers on a ring around the middle of `area`, `order[0]` at the top,
    /// clockwise. The ring is 0.32 × the area's smaller side, or wider where it must be: the gap
    /// between neighbours is at least 1.5 ball diameters, so the ball passes between any two
    /// and reaches every bouncer from inside and outside the ring. A bouncer may then reach
    /// into a wall (as the original layout's corner bouncers do); the ball goes round it.
    static func ring(order: [Int], radii: [Int: Double], ballRadius: Double, in area: Rect) -> [Int: Vector] {
        let c = area.center
        let n = order.count
        let chord = 2 * sin(Double.pi / Double(n))   // neighbour distance per metre of ring radius
        var ring = 0.32 * min(area.width, area.height)
        for (index, degree) in order.enumerated() {
            let next = order[(index + 1) % n]
            ring = max(ring, (radii[degree]! + radii[next]! + 3 * ballRadius) / chord)
        }
        ring = min(ring, 0.5 * min(area.width, area.height))
        var centres: [Int: Vector] = [:]
        for (index, degree) in order.enumerated() {
            let angle = Double.pi / 2 - 2 * Double.pi * Double(index) / Double(n)
            centres[degree] = Vector(c.x + ring * cos(angle), c.y + ring * sin(angle))
        }
        return centres
    }

    /// Centres for the `fifths` layout: the bouncers in `fifthsOrder` on a ring small enough to
    /// leave a corridor of at least 1.5 ball diameters to every wall, so the ball can go round
    /// the ring outside it, striking neighbour after neighbour (a fifth apart each time).
    static func fifthsRing(radii: [Int: Double], ballRadius: Double, in area: Rect) -> [Int: Vector] {
        let c = area.center
        let n = fifthsOrder.count
        var ring = 0.32 * min(area.width, area.height)
        for (index, degree) in fifthsOrder.enumerated() {
            let angle = Double.pi / 2 - 2 * Double.pi * Double(index) / Double(n)
            let room = min((0.5 * area.width - radii[degree]! - 3 * ballRadius) / max(abs(cos(angle)), 1e-9),
                           (0.5 * area.height - radii[degree]! - 3 * ballRadius) / max(abs(sin(angle)), 1e-9))
            ring = min(ring, room)
        }
        ring = max(ring, 1.2 * (radii.values.max() ?? 0))
        var centres: [Int: Vector] = [:]
        for (index, degree) in fifthsOrder.enumerated() {
            let angle = Double.pi / 2 - 2 * Double.pi * Double(index) / Double(n)
            centres[degree] = Vector(c.x + ring * cos(angle), c.y + ring * sin(angle))
        }
        return centres
    }

    /// Degrees of the bouncers that a ball of `ballRadius` could touch from somewhere in the
    /// area but never from where it starts: it is shut out of them. A flood fill over a 2 cm
    /// grid of the places its centre can be. (A bouncer no ball position touches at all, such
    /// as a tiny one in a corner, shuts nothing in and is not reported.)
    ///
    /// Runs once per session, on a grid of some 40,000 cells: the fill stops as soon as it has
    /// reached every bouncer (then none is shut out), and only when it cannot are the free
    /// cells searched for the bouncers it missed. Flags in arrays indexed by cell and by
    /// bouncer, no sets: hashing every cell made this a few per cent of a one-hour MIDI-only run.
    static func unreachableBouncers(_ bouncers: [CircleObstacle], in area: Rect, from start: Vector,
                                    ballRadius r: Double) -> [Int] {
        let cell = 0.02
        let columns = Int((area.width / cell).rounded(.up)) + 1
        let rows = Int((area.height / cell).rounded(.up)) + 1
        func point(_ index: Int) -> Vector {
            Vector(area.minX + Double(index % columns) * cell, area.minY + Double(index / columns) * cell)
        }
        func touches(_ bouncer: CircleObstacle, from p: Vector) -> Bool {
            (bouncer.center - p).length <= bouncer.radius + r + cell * 1.5
        }
        // Whether the ball's centre fits at each cell: 0 not yet known, 1 free, 2 not.
        var fits = [UInt8](repeating: 0, count: columns * rows)
        func isFree(_ index: Int) -> Bool {
            if fits[index] == 0 {
                let p = point(index)
                var free = area.contains(p, inset: r)
                if free {
                    for bouncer in bouncers where !((bouncer.center - p).length >= bouncer.radius + r) {
                        free = false
                        break
                    }
                }
                fits[index] = free ? 1 : 2
            }
            return fits[index] == 1
        }
        // The bouncers reached from the start.
        var reached = [Bool](repeating: false, count: bouncers.count)
        var unreached = bouncers.count
        var seen = [Bool](repeating: false, count: columns * rows)
        let startColumn = min(columns - 1, max(0, Int(((start.x - area.minX) / cell).rounded())))
        let startRow = min(rows - 1, max(0, Int(((start.y - area.minY) / cell).rounded())))
        var stack = [startRow * columns + startColumn]
        seen[stack[0]] = true
        while unreached > 0, let index = stack.popLast() {
            // The start itself may sit a little off the grid's free cells; let it through.
            guard isFree(index) || (point(index) - start).length < cell * 1.5 else { continue }
            let p = point(index)
            for b in bouncers.indices where !reached[b] && touches(bouncers[b], from: p) {
                reached[b] = true
                unreached -= 1
            }
            let column = index % columns
            let row = index / columns
            if column + 1 < columns, !seen[index + 1] { seen[index + 1] = true; stack.append(index + 1) }
            if column > 0, !seen[index - 1] { seen[index - 1] = true; stack.append(index - 1) }
            if row + 1 < rows, !seen[index + columns] { seen[index + columns] = true; stack.append(index + columns) }
            if row > 0, !seen[index - columns] { seen[index - columns] = true; stack.append(index - columns) }
        }
        guard unreached > 0 else { return [] }
        // Of the bouncers missed, those a ball touches from some free cell: it is shut out of them.
        var touchable = [Bool](repeating: false, count: bouncers.count)
        for index in 0..<(columns * rows) where isFree(index) {
            let p = point(index)
            for b in bouncers.indices where !reached[b] && !touchable[b] && touches(bouncers[b], from: p) {
                touchable[b] = true
            }
        }
        return bouncers.indices.filter { touchable[$0] && !reached[$0] }.map { bouncers[$0].tag }
    }

    private static func freeSpot(in area: Rect, avoiding bouncers: [CircleObstacle], radius: Double) -> Vector? {
        let steps = 24
        var best: (Vector, Double)?
        for i in 1..<steps {
            for j in 1..<steps {
                let p = Vector(area.minX + area.width * Double(i) / Double(steps), area.minY + area.height * Double(j) / Double(steps))
                guard area.contains(p, inset: radius) else { continue }
                let clearance = bouncers.map { ($0.center - p).length - $0.radius - radius }.min() ?? .infinity
                if clearance > 0, best == nil || clearance > best!.1 { best = (p, clearance) }
            }
        }
        return best?.0
    }

    /// `count` non-overlapping ball centres, highest rows first, seeded jitter.
    static func spawnPoints(count: Int, radius r: Double, pianoArea: Rect, floor: Double,
                            rng: inout SplitMix64, presetName: String) throws(SessionError) -> [Vector] {
        guard count > 0 else { return [] }
        let cell = 2.2 * r
        let columns = Int(((pianoArea.width - 2 * r) / cell).rounded(.down)) + 1
        let usableHeight = pianoArea.height - floor - 2 * r - 2 * r
        let rows = Int((usableHeight / cell).rounded(.down)) + 1
        let upperRows = max(1, rows / 2)
        guard columns >= 1, rows >= 1, columns * rows >= count else {
            throw .preset(file: presetName, field: "piano.count",
                          message: "\(count) balls of radius \(Format.plain(r)) m do not fit in the piano area; at most \(max(0, columns * rows)) fit at that radius")
        }
        // Use the upper half when it has room, else as many rows (from the top) as needed.
        let usedRows = columns * upperRows >= count ? upperRows : Int((Double(count) / Double(columns)).rounded(.up))
        var cells: [Int] = Array(0..<(columns * usedRows))
        for i in stride(from: cells.count - 1, to: 0, by: -1) {
            cells.swapAt(i, rng.below(i + 1))
        }
        let jitter = 0.08 * r
        let xSpan = Double(columns - 1) * cell
        let x0 = pianoArea.minX + (pianoArea.width - xSpan) / 2
        var points: [Vector] = []
        for index in cells.prefix(count).sorted() {
            let row = index / columns
            let column = index % columns
            let x = x0 + Double(column) * cell + rng.uniform(-jitter...jitter)
            let y = pianoArea.maxY - 2 * r - Double(row) * cell + rng.uniform(-jitter...jitter)
            points.append(Vector(x, y))
        }
        return points
    }
}
