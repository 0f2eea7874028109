// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import Geometry
import Physics
import Presets
import TestSupport
import Testing
@testable import Engine

/// The flood fill that refuses layouts where the bass ball is shut out of a bouncer.
@Suite struct UnreachableBouncerTests {
    /// The first version of `Layout.unreachableBouncers`, kept as the reference: sets of tags,
    /// every cell of the grid visited, no early stop. The fast one must agree with it.
    static func reference(_ bouncers: [CircleObstacle], in area: Rect, from start: Vector, ballRadius r: Double) -> [Int] {
        let cell = 0.02
        let columns = Int((area.width / cell).rounded(.up)) + 1
        let rows = Int((area.height / cell).rounded(.up)) + 1
        func point(_ index: Int) -> Vector {
            Vector(area.minX + Double(index % columns) * cell, area.minY + Double(index / columns) * cell)
        }
        func isFree(_ p: Vector) -> Bool {
            area.contains(p, inset: r) && bouncers.allSatisfy { ($0.center - p).length >= $0.radius + r }
        }
        var seen = [Bool](repeating: false, count: columns * rows)
        let startColumn = min(columns - 1, max(0, Int(((start.x - area.minX) / cell).rounded())))
        let startRow = min(rows - 1, max(0, Int(((start.y - area.minY) / cell).rounded())))
        var stack = [startRow * columns + startColumn]
        var reached = Set<Int>()
        seen[stack[0]] = true
        while let index = stack.popLast() {
            let p = point(index)
            guard isFree(p) || (p - start).length < cell * 1.5 else { continue }
            for bouncer in bouncers where !reached.contains(bouncer.tag)
                && (bouncer.center - p).length <= bouncer.radius + r + cell * 1.5 {
                reached.insert(bouncer.tag)
            }
            let column = index % columns
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let c = column + dx
                let row = index / columns + dy
                guard c >= 0, c < columns, row >= 0, row < rows else { continue }
                let next = row * columns + c
                if !seen[next] {
                    seen[next] = true
                    stack.append(next)
                }
            }
        }
        var touchable = Set<Int>()
        for index in 0..<(columns * rows) {
            let p = point(index)
            guard isFree(p) else { continue }
            for bouncer in bouncers where (bouncer.center - p).length <= bouncer.radius + r + cell * 1.5 {
                touchable.insert(bouncer.tag)
            }
        }
        return bouncers.map(\.tag).filter { touchable.contains($0) && !reached.contains($0) }
    }

    @Test("agrees with the reference on 150 seeded random layouts, pockets and open ones alike")
    func agreesWithTheReference() {
        var rng = SplitMix64(seed: 20_261_123, stream: 99)
        var shutIn = 0
        var open = 0
        for _ in 0..<150 {
            // A small area keeps the reference (every cell, sets) quick in a debug build.
            let area = Rect(minX: rng.uniform(-0.5...0.5), minY: rng.uniform(-0.5...0.5), maxX: 0, maxY: 0)
            let box = Rect(minX: area.minX, minY: area.minY,
                           maxX: area.minX + rng.uniform(0.6...1.2), maxY: area.minY + rng.uniform(0.6...1.4))
            let radius = rng.uniform(0.03...0.25)
            let ball = rng.uniform(0.02...0.12)
            let count = 1 + rng.below(7)
            // Bouncers anywhere, walls and corners included, so some close off pockets.
            let bouncers = (1...count).map { tag in
                CircleObstacle(tag: tag, center: Vector(rng.uniform(box.minX...box.maxX), rng.uniform(box.minY...box.maxY)),
                               radius: radius * rng.uniform(0.5...1.5))
            }
            let start = Vector(rng.uniform(box.minX...box.maxX), rng.uniform(box.minY...box.maxY))
            let fast = Layout.unreachableBouncers(bouncers, in: box, from: start, ballRadius: ball)
            let slow = Self.reference(bouncers, in: box, from: start, ballRadius: ball)
            #expect(fast == slow, "bouncers \(bouncers), area \(box), start \(start), ball \(ball)")
            if slow.isEmpty { open += 1 } else { shutIn += 1 }
        }
        // Both outcomes must occur, or the comparison proves little.
        #expect(shutIn >= 10 && open >= 10, "shut in: \(shutIn), open: \(open)")
    }

    @Test("the original layout with a big ball and big bouncers: degrees 6 and 7 are shut out, as the reference finds")
    func originalLayoutWithABigBall() throws {
        let preset = try decode(#"{"bass": {"radius": 0.6, "bouncerRadius": 0.8}}"#)
        let s = Preset.metresPerPoint
        let area = Rect(minX: 0, minY: 0, maxX: 512 * s, maxY: 700 * s)
        let points: [Int: (Double, Double)] = [1: (256, 344), 2: (0, 700), 3: (512, 700), 4: (0, 344),
                                               5: (512, 344), 6: (0, 0), 7: (512, 0)]
        let bouncers = (1...7).map { CircleObstacle(tag: $0, center: Vector(points[$0]!.0 * s, points[$0]!.1 * s), radius: 0.8) }
        let start = Vector(256 * s, 600 * s)
        let found = Layout.unreachableBouncers(bouncers, in: area, from: start, ballRadius: 0.6)
        #expect(found == Self.reference(bouncers, in: area, from: start, ballRadius: 0.6))
        #expect(found == [6, 7])
        // And through the layout: the preset is refused, naming them.
        #expect(throws: SessionError.self) { try Layout.make(preset, seed: 1) }
        // The default ball passes everywhere.
        #expect(Layout.unreachableBouncers(bouncers.map { CircleObstacle(tag: $0.tag, center: $0.center, radius: 40 * s) },
                                           in: area, from: start, ballRadius: 0.1).isEmpty)
    }

    @Test("scatter bouncers that do not fit: the refusal names bass.home when the tonic's size is what made them too big, else bass.bouncerRadius")
    func scatterRefusalNamesTheField() throws {
        for (text, field) in [(#"{"layout": "scatter", "bass": {"bouncerRadius": 0.22, "home": 3}}"#, "bass.home"),
                              (#"{"layout": "scatter", "bass": {"bouncerRadius": 0.8}}"#, "bass.bouncerRadius")] {
            let preset = try decode(text)
            #expect(throws: SessionError.self) { try Layout.make(preset, seed: 404) }
            do {
                _ = try Layout.make(preset, seed: 404)
            } catch {
                guard case .preset(_, let named, let message) = error else { Issue.record("\(error)"); continue }
                #expect(named == field, "\(text): \(message)")
                #expect(message.contains("scatter"), "\(message)")
            }
        }
        // The same home at a radius that fits is accepted: the refusal is about fitting.
        _ = try Layout.make(try decode(#"{"layout": "scatter", "bass": {"bouncerRadius": 0.1, "home": 3}}"#), seed: 404)
    }
}
