// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include <math.h>
#include <chipmunk/chipmunk_private.h>
#include "chipmunk_pools.h"

void clumsy_chipmunk_grow_pools(void *opaque, int contacts, double step) {
    cpSpace *space = (cpSpace *)opaque;
    cpHashValue shapeIDs = space->shapeIDCounter;
    // One stand-in ball at the origin, touching `contacts` stand-in static circles set around
    // it: a millimetre across, so each covers one cell of a spatial hash (swarm's index).
    cpBody *body = cpSpaceAddBody(space, cpBodyNew(1, cpMomentForCircle(1, 0, 1e-3, cpvzero)));
    cpShape *ball = cpSpaceAddShape(space, cpCircleShapeNew(body, 1e-3, cpvzero));
    cpBody *ground = cpSpaceGetStaticBody(space);
    cpShape **props = (cpShape **)cpcalloc((size_t)contacts, sizeof(cpShape *));
    for (int i = 0; i < contacts; i++) {
        double angle = 2 * M_PI * i / contacts;
        props[i] = cpSpaceAddShape(space, cpCircleShapeNew(ground, 1e-3, cpv(1e-3 * cos(angle), 1e-3 * sin(angle))));
    }
    // A step's contacts, kept for the collision persistence: as many steps as a contact buffer
    // is kept for, so the ring holds that many steps of `contacts`.
    for (cpTimestamp i = 0; i <= space->collisionPersistence; i++) cpSpaceStep(space, step);
    for (int i = 0; i < contacts; i++) {
        cpSpaceRemoveShape(space, props[i]);
        cpShapeFree(props[i]);
    }
    cpfree(props);
    cpSpaceRemoveShape(space, ball);
    cpShapeFree(ball);
    cpSpaceRemoveBody(space, body);
    cpBodyFree(body);
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
