// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include <math.h>
#include <chipmunk/chipmunk_private.h>
#include "chipmunk_pools.h"

void clumsy_chipmunk_grow_pools(void *opaque, int contacts, double step) {
    cpSpace *space = (cpSpace *)opaque;
    cpHashValue shapeIDs = space->shapeIDCounter;
    // n stand-in balls at the origin and m stand-in static circles set around it, a millimetre
    // across, so each covers one cell of a spatial hash (swarm's index): every ball touches
    // every circle but the last ball only the first r, so exactly `contacts` pairs touch. The
    // cache of arbiters grows to the size that many need, no larger: its end-of-step filter
    // visits every slot of it, every step (a hundred pairs over `default`'s 92 made it 193 slots,
    // not 97, and the 600 s session 10 % more instructions). n and m near the square root, not
    // one ball and `contacts` circles: Chipmunk looks through the whole cache for each shape
    // taken out, so n + m removals, not contacts + 1 (4,069 for the swarm).
    int n = (int)ceil(sqrt((double)contacts));
    int m = (contacts + n - 1) / n;
    int r = contacts - (n - 1) * m;   // 1…m
    cpBody **bodies = (cpBody **)cpcalloc((size_t)n, sizeof(cpBody *));
    cpShape **balls = (cpShape **)cpcalloc((size_t)n, sizeof(cpShape *));
    for (int i = 0; i < n; i++) {
        bodies[i] = cpSpaceAddBody(space, cpBodyNew(1, cpMomentForCircle(1, 0, 1e-3, cpvzero)));
        balls[i] = cpSpaceAddShape(space, cpCircleShapeNew(bodies[i], 1e-3, cpvzero));
        // One group (never each other); the last ball meets only the circles of category 2.
        cpShapeSetFilter(balls[i], cpShapeFilterNew(1, 1, i == n - 1 ? 2 : 2 | 4));
    }
    cpBody *ground = cpSpaceGetStaticBody(space);
    cpShape **props = (cpShape **)cpcalloc((size_t)m, sizeof(cpShape *));
    for (int i = 0; i < m; i++) {
        double angle = 2 * M_PI * i / m;
        props[i] = cpSpaceAddShape(space, cpCircleShapeNew(ground, 1e-3, cpv(1e-3 * cos(angle), 1e-3 * sin(angle))));
        cpShapeSetFilter(props[i], cpShapeFilterNew(CP_NO_GROUP, i < r ? 2 : 4, CP_ALL_CATEGORIES));
    }
    // A step's contacts, kept for the collision persistence: as many steps as a contact buffer
    // is kept for, so the ring holds that many steps of `contacts`.
    for (cpTimestamp i = 0; i <= space->collisionPersistence; i++) cpSpaceStep(space, step);
    for (int i = 0; i < n; i++) {
        cpSpaceRemoveShape(space, balls[i]);
        cpShapeFree(balls[i]);
        cpSpaceRemoveBody(space, bodies[i]);
        cpBodyFree(bodies[i]);
    }
    for (int i = 0; i < m; i++) {
        cpSpaceRemoveShape(space, props[i]);
        cpShapeFree(props[i]);
    }
    cpfree(props);
    cpfree(balls);
    cpfree(bodies);
    // The shapes added next are numbered as if the stand-ins had never been: the numbers
    // order collision pairs and key the index's leaves.
    space->shapeIDCounter = shapeIDs;
}

void clumsy_chipmunk_renumber(void *opaque, unsigned long shapes, double step) {
    cpSpace *space = (cpSpace *)opaque;
    space->shapeIDCounter = shapes;
    // As after the rehearsal of a new space (clumsy_chipmunk_grow_pools) at this step length:
    // the solver scales cached impulses by this step over the last (none are cached here).
    space->curr_dt = step;
}
