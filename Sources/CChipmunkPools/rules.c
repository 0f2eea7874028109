// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The World's rules after each Chipmunk sub-step (Physics/World.swift, enforceRules), read from
// Chipmunk's bodies directly (chipmunk_private.h): in Swift each ball cost two calls into the
// library for its velocity and position, every sub-step (issue 46). The arithmetic is the
// Swift code's, operation for operation, so the physics is the same to the bit; no
// contraction into fused multiply-adds.
#pragma STDC FP_CONTRACT OFF

#define _GNU_SOURCE // sincos, which Debian's libchipmunk (GCC) calls for cpvforangle
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

/// Chipmunk's cpBodyUpdateVelocity (cpBody.c), operation for operation, without its call to
/// cpBodyGetType and its sanity check (Debian builds Chipmunk with its assertions on: 21
/// instructions a body a sub-step, a fifth of this update's cost in the swarm, issue 46). A
/// kinematic body (infinite mass, not static) is skipped as Chipmunk skips it.
static void ball_velocity(cpBody *body, cpVect gravity, cpFloat damping, cpFloat dt) {
    if (body->sleeping.idleTime != (cpFloat)INFINITY && body->m == (cpFloat)INFINITY) return;
    body->v = cpvadd(cpvmult(body->v, damping), cpvmult(cpvadd(gravity, cpvmult(body->f, body->m_inv)), dt));
    body->w = body->w * damping + body->t * body->i_inv * dt;
    body->f = cpvzero;
    body->t = 0.0f;
}

static void bass_velocity(cpBody *body, cpVect gravity, cpFloat damping, cpFloat dt) {
    (void)gravity;
    (void)damping;
    ball_velocity(body, cpvzero, 1, dt);
}

/// Chipmunk's cpBodyUpdatePosition (cpBody.c), operation for operation, without its sanity
/// check, and the rotation's cosine and sine taken from the body's transform when the angle is
/// bit for bit the one they were computed for: a ball that does not spin (no friction, so no
/// torque: every bundled preset's) cost a sincos every sub-step (2.9 % of 600 s of `default`,
/// issue 46). The transform is always Chipmunk's own function of the angle (cpBodySetAngle and
/// this update both write it from it), so the results are the same to the bit.
static void position_keeping_rotation(cpBody *body, cpFloat dt) {
    cpVect p = body->p = cpvadd(body->p, cpvmult(cpvadd(body->v, body->v_bias), dt));
    cpFloat a = body->a + (body->w + body->w_bias) * dt;
    cpVect rot = cpv(body->transform.a, body->transform.b);
    if (memcmp(&a, &body->a, sizeof a) != 0) sincos(a, &rot.y, &rot.x); // cpvforangle, as GCC compiles it
    body->a = a;
    cpVect c = body->cog;
    body->transform = cpTransformNewTranspose(rot.x, -rot.y, p.x - (c.x * rot.x - c.y * rot.y),
                                              rot.y, rot.x, p.y - (c.x * rot.y + c.y * rot.x));
    body->v_bias = cpvzero;
    body->w_bias = 0.0f;
}

void clumsy_ball_moves_lean(void *body) {
    cpBodySetVelocityUpdateFunc((cpBody *)body, ball_velocity);
    cpBodySetPositionUpdateFunc((cpBody *)body, position_keeping_rotation);
}

void clumsy_bass_ignores_gravity(void *body) {
    cpBodySetVelocityUpdateFunc((cpBody *)body, bass_velocity);
}
