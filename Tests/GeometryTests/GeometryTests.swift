// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Geometry
import Testing

/// The plane the world is laid out in and drawn on: vectors and rectangles.
@Suite("Vectors and rectangles")
struct GeometryTests {
    @Test("Vector arithmetic, length, dot product and finiteness")
    func vectors() {
        let a = Vector(3, 4), b = Vector(-1, 2)
        #expect(a.length == 5 && Vector.zero.length == 0)
        #expect(a + b == Vector(2, 6) && a - b == Vector(4, 2) && a * 0.5 == Vector(1.5, 2))
        #expect(a.dot(b) == 5 && a.dot(Vector(-4, 3)) == 0)
        #expect(a.isFinite && !Vector(.nan, 0).isFinite && !Vector(0, .infinity).isFinite)
    }

    @Test("A rectangle's size and centre; what it contains, with and without an inset, edges included")
    func containment() {
        let box = Rect(minX: 0, minY: 0, maxX: 10, maxY: 4)
        #expect(box.width == 10 && box.height == 4 && box.center == Vector(5, 2))
        #expect(box.contains(Vector(0, 0)) && box.contains(Vector(10, 4)) && box.contains(Vector(5, 2)))
        #expect(!box.contains(Vector(10.001, 2)) && !box.contains(Vector(5, -0.001)))
        #expect(box.contains(Vector(1, 1), inset: 1) && !box.contains(Vector(0.5, 2), inset: 1))
        #expect(!box.contains(Vector(.nan, 2)))
    }

    @Test("Clamping keeps a point inside (the nearest point), inset and union")
    func clampInsetUnion() {
        let box = Rect(minX: 0, minY: 0, maxX: 10, maxY: 4)
        #expect(box.clamp(Vector(-5, 9)) == Vector(0, 4))
        #expect(box.clamp(Vector(3, 2)) == Vector(3, 2))
        #expect(box.clamp(Vector(20, -1), inset: 0.5) == Vector(9.5, 0.5))
        for x in stride(from: -20.0, through: 20, by: 0.7) {
            for y in stride(from: -9.0, through: 9, by: 0.9) {
                #expect(box.contains(box.clamp(Vector(x, y), inset: 1), inset: 1), "\(x), \(y)")
            }
        }
        #expect(box.inset(by: 1) == Rect(minX: 1, minY: 1, maxX: 9, maxY: 3))
        #expect(box.inset(by: -1) == Rect(minX: -1, minY: -1, maxX: 11, maxY: 5))
        let other = Rect(minX: -2, minY: 1, maxX: 3, maxY: 8)
        #expect(box.union(other) == Rect(minX: -2, minY: 0, maxX: 10, maxY: 8) && box.union(other) == other.union(box))
    }
}
