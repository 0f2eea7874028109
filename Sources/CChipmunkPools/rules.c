// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The World's rules after each Chipmunk sub-step (Physics/World.swift, enforceRules), read from
// Chipmunk's bodies directly (chipmunk_private.h): in Swift each ball cost two calls into the
// library for its velocity and position, every sub-step (issue 46). The arithmetic is the
// Swift code's, operation for operation, so the physics is the same to the bit; no
// contraction into fused multiply-adds.
#pragma STDC FP_CONTRACT OFF

#include <math.h>
#include <stdint.h>
#include <string.h>
#include <chipmunk/chipmunk_private.h>
#include "chipmunk_pools.h"

static int inside(cpVect p, double minX, double minY, double maxX, double maxY) {
    return p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY;
}

int clumsy_bass_rule(void *opaque, double speed, int wakes, double minX, double minY, double maxX, double maxY) {
    cpBody *bass = (cpBody *)opaque;
    cpVect v = bass->v;
    double length = sqrt(v.x * v.x + v.y * v.y);
    if (!(length > 1e-9) || !isfinite(length)) {
        cpBodySetVelocity(bass, cpv(speed * 0.7071067811865476, speed * 0.7071067811865476));
    } else if (fabs(length - speed) > 1e-12 * speed) {
        double scale = speed / length;
        cpBodySetVelocity(bass, cpv(v.x * scale, v.y * scale));
    }
    uint64_t spin;
    memcpy(&spin, &bass->w, sizeof spin);
    if (wakes || spin != 0) cpBodySetAngularVelocity(bass, 0);
    return !inside(bass->p, minX, minY, maxX, maxY);
}

long clumsy_piano_rule(void *bodies, long first, long count, double limit, double minX, double minY,
                       double maxX, double maxY) {
    cpBody *const *list = (cpBody *const *)bodies;
    const double limitSquared = limit * limit;
    for (long ball = first; ball < count; ball++) {
        cpBody *body = list[ball];
        cpVect v = body->v;
        double speedSquared = v.x * v.x + v.y * v.y;
        if (speedSquared > limitSquared) {
            double scale = limit / sqrt(speedSquared);
            cpBodySetVelocity(body, cpv(v.x * scale, v.y * scale));
        }
        if (!inside(body->p, minX, minY, maxX, maxY)) return ball;
    }
    return count;
}

static void bass_velocity(cpBody *body, cpVect gravity, cpFloat damping, cpFloat dt) {
    (void)gravity;
    (void)damping;
    cpBodyUpdateVelocity(body, cpvzero, 1, dt);
}

void clumsy_bass_ignores_gravity(void *body) {
    cpBodySetVelocityUpdateFunc((cpBody *)body, bass_velocity);
}
