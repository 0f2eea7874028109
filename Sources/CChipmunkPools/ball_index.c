// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The moving shapes' index of a crowded world whose balls do not collide with each other
// (`swarm`): see clumsy_chipmunk_index_balls_alone in chipmunk_pools.h.

#include <chipmunk/chipmunk_private.h>
#include "chipmunk_pools.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

// Cells a side of a static shapes' grid (a row is one 64-bit word), and the grids a step makes
// at most (see reindexQuery).
#define GRID 64
#define GRIDS 2

// Where the static shapes one filter lets a moving shape meet are: the box around their boxes,
// cut into GRID × GRID cells, a cell set when one of those boxes meets it.
typedef struct {
    cpShapeFilter filter;
    cpBB bounds;
    cpFloat cellsPerX, cellsPerY;
    uint64_t rows[GRID];  // bit x of row y: cell (x, y) is occupied
} StaticGrid;

typedef struct {
    cpSpatialIndex index;
    // The shapes, in a set of Chipmunk's own kind keyed by each shape's hashid, fed the same
    // inserts and removals in the same order as the spatial hash's set of handles: its
    // buckets, chains and growth, so the order `each` visits, are the hash's.
    cpHashSet *shapes;
    // Where the static shapes a moving shape's filter lets it meet are, for the (at most
    // GRIDS) filters of this step's search (see reindexQuery).
    StaticGrid grids[GRIDS];
    int gridCount;
    cpSpace *space;
    // Static-index lookups made and left out (clumsy_chipmunk_ball_index_lookups).
    unsigned long made, skipped;
} BallIndex;

static cpBool sameShape(const void *shape, const void *element) { return shape == element; }

static void destroy(BallIndex *index) { cpHashSetFree(index->shapes); }

static int count(BallIndex *index) { return cpHashSetCount(index->shapes); }

typedef struct {
    cpSpatialIndexIteratorFunc function;
    void *data;
} EachContext;

static void eachShape(void *shape, EachContext *context) { context->function(shape, context->data); }

static void each(BallIndex *index, cpSpatialIndexIteratorFunc function, void *data) {
    EachContext context = {function, data};
    cpHashSetEach(index->shapes, (cpHashSetIteratorFunc)eachShape, &context);
}

static cpBool contains(BallIndex *index, void *shape, cpHashValue hashid) {
    return cpHashSetFind(index->shapes, hashid, shape) != NULL;
}

static void insert(BallIndex *index, void *shape, cpHashValue hashid) {
    cpHashSetInsert(index->shapes, hashid, shape, NULL, shape);
}

static void removeShape(BallIndex *index, void *shape, cpHashValue hashid) {
    cpHashSetRemove(index->shapes, hashid, shape);
}

// The spatial hash has no cells to bring up to date here; it takes a reindexed shape out of
// its set and puts it back (to the head of its chain), and so does this.
static void reindex(BallIndex *index) { (void)index; }

static void reindexObject(BallIndex *index, void *shape, cpHashValue hashid) {
    if (cpHashSetRemove(index->shapes, hashid, shape)) cpHashSetInsert(index->shapes, hashid, shape, NULL, shape);
}

// The grid's cell of coordinate `v` along an axis from `low`, `perCell` cells a unit, kept in
// 0…GRID−1. Monotonic in `v`, so a point shared by two boxes lies in a cell both boxes cover.
static inline int cellOf(cpFloat v, cpFloat low, cpFloat perCell) {
    cpFloat c = (v - low) * perCell;
    // (Truncation is the floor for c ≥ 0; not a number, or below 0, is cell 0.)
    return c >= 0 ? (c < GRID ? (int)c : GRID - 1) : 0;
}

// Bits l…r of a row (0 ≤ l ≤ r < 64).
static inline uint64_t cellBits(int l, int r) {
    return (r - l == 63 ? ~(uint64_t)0 : (((uint64_t)1 << (r - l + 1)) - 1)) << l;
}

// A box with a coordinate that is not a number meets no box (cpBBIntersects), so it takes no cell.
static cpBool isNumber(cpBB bb) { return !isnan(bb.l) && !isnan(bb.b) && !isnan(bb.r) && !isnan(bb.t); }

// A static shape's box in `grid`'s terms: its corners in order (Chipmunk's boxes have l ≤ r and
// b ≤ t; the cells run from the smaller to the larger all the same), or false when the shape
// takes no cell (a coordinate not a number, or refused by the grid's filter).
static cpBool staticBox(const cpShape *shape, const StaticGrid *grid, cpBB *box) {
    cpBB bb = shape->bb;
    if (!isNumber(bb) || cpShapeFilterReject(shape->filter, grid->filter)) return cpFalse;
    *box = cpBBNew(fmin(bb.l, bb.r), fmin(bb.b, bb.t), fmax(bb.l, bb.r), fmax(bb.b, bb.t));
    return cpTrue;
}

static void boundStatic(cpShape *shape, StaticGrid *grid) {
    cpBB bb;
    if (staticBox(shape, grid, &bb)) grid->bounds = cpBBMerge(grid->bounds, bb);
}

static void markStatic(cpShape *shape, StaticGrid *grid) {
    cpBB bb, all = grid->bounds;
    if (!staticBox(shape, grid, &bb)) return;
    int l = cellOf(bb.l, all.l, grid->cellsPerX), r = cellOf(bb.r, all.l, grid->cellsPerX);
    int b = cellOf(bb.b, all.b, grid->cellsPerY), t = cellOf(bb.t, all.b, grid->cellsPerY);
    uint64_t bits = cellBits(l, r);
    for (int y = b; y <= t; y++) grid->rows[y] |= bits;
}

static void buildGrid(StaticGrid *grid, cpShapeFilter filter, cpSpatialIndex *statics) {
    grid->filter = filter;
    grid->bounds = cpBBNew(INFINITY, INFINITY, -INFINITY, -INFINITY);
    cpSpatialIndexEach(statics, (cpSpatialIndexIteratorFunc)boundStatic, grid);
    cpFloat width = grid->bounds.r - grid->bounds.l, height = grid->bounds.t - grid->bounds.b;
    // A degenerate (or not finite) extent: one cell, which every box meeting the bounds is in.
    grid->cellsPerX = width > 0 && isfinite(width) ? GRID / width : 0;
    grid->cellsPerY = height > 0 && isfinite(height) ? GRID / height : 0;
    memset(grid->rows, 0, sizeof grid->rows);
    cpSpatialIndexEach(statics, (cpSpatialIndexIteratorFunc)markStatic, grid);
}

// Whether a static shape `grid` holds may meet box `bb`: false only when no cell `bb` covers holds one.
static cpBool nearStatic(const StaticGrid *grid, cpBB bb) {
    cpBB all = grid->bounds;
    if (!cpBBIntersects(all, bb)) return cpFalse;
    // A ball's box is never inverted; if one were, its cells would run backwards: look it up.
    if (bb.l > bb.r || bb.b > bb.t) return cpTrue;
    int l = cellOf(bb.l, all.l, grid->cellsPerX), r = cellOf(bb.r, all.l, grid->cellsPerX);
    int b = cellOf(bb.b, all.b, grid->cellsPerY), t = cellOf(bb.t, all.b, grid->cellsPerY);
    uint64_t bits = cellBits(l, r);
    for (int y = b; y <= t; y++) {
        if (grid->rows[y] & bits) return cpTrue;
    }
    return cpFalse;
}

static cpBool sameFilter(cpShapeFilter a, cpShapeFilter b) {
    return a.group == b.group && a.categories == b.categories && a.mask == b.mask;
}

typedef struct {
    BallIndex *index;
    cpSpatialIndexQueryFunc function;
    void *data;
} CollideContext;

static void collideWithStatic(cpShape *shape, CollideContext *context) {
    BallIndex *index = context->index;
    cpSpatialIndex *statics = index->index.staticIndex;
    cpBB bb = shape->bb;
    StaticGrid *grid = NULL;
    for (int g = 0; g < index->gridCount && !grid; g++) {
        if (sameFilter(index->grids[g].filter, shape->filter)) grid = &index->grids[g];
    }
    if (!grid && index->gridCount < GRIDS) {
        grid = &index->grids[index->gridCount++];
        buildGrid(grid, shape->filter, statics);
    }
    // A filter beyond the grids made: looked up as Chipmunk would.
    if (!grid || nearStatic(grid, bb)) {
        index->made++;
        cpSpatialIndexQuery(statics, shape, bb, context->function, context->data);
    } else {
        index->skipped++;
    }
}

// A step's search for pairs: the moving shapes against the static index only, in the order
// the spatial hash would visit them after its (here empty-handed) search among themselves
// (cpSpatialIndexCollideStatic's walk). While the space does not sleep, a ball is not looked
// up when its box meets the box of no static shape its filter lets it meet: the static index
// would only have handed Chipmunk shapes that cpSpaceCollideShapes rejects at once
// (QueryReject: boxes apart, or filtered), so leaving it out changes no contact and no order.
// (The lookup also moves the hash's stamp on, which only has to grow, and clears removed
// shapes out of the cells it visits, keeping the others' order.) Most of a crowd is in the
// air: the lookups and Chipmunk's rejections were nearly a third of `swarm`. The grids are made again for every search, from
// the static shapes' boxes as they are then (keys, walls, bouncers, bodies left asleep), one
// for each filter the moving shapes carry, up to GRIDS.
static void reindexQuery(BallIndex *index, cpSpatialIndexQueryFunc function, void *data) {
    cpSpatialIndex *statics = index->index.staticIndex;
    if (!statics || cpSpatialIndexCount(statics) == 0) return;
    if (index->space->sleepTimeThreshold != INFINITY) {
        // A sleeping world moves shapes in and out of the static index all the time, and the
        // hash clears a removed shape out of a cell only when a lookup visits it: skipping
        // lookups would keep those cells' bins from its pool (more memory, and an allocation
        // in the plugin's audio thread). So every moving shape is looked up, as Chipmunk does.
        index->made += (unsigned long)cpHashSetCount(index->shapes);
        cpSpatialIndexCollideStatic(&index->index, statics, function, data);
        return;
    }
    index->gridCount = 0;
    CollideContext context = {index, function, data};
    cpHashSetEach(index->shapes, (cpHashSetIteratorFunc)collideWithStatic, &context);
}

// Chipmunk's space queries (cpSpacePointQuery and the like; Clumsy calls none) still answer:
// every shape whose box meets `bb`, found by a walk over the set.
typedef struct {
    cpSpatialIndexBBFunc box;
    void *object;
    cpBB bb;
    cpSpatialIndexQueryFunc function;
    void *data;
} QueryContext;

static void queryShape(void *shape, QueryContext *context) {
    if (shape != context->object && cpBBIntersects(context->bb, context->box(shape))) {
        context->function(context->object, shape, 0, context->data);
    }
}

static void query(BallIndex *index, void *object, cpBB bb, cpSpatialIndexQueryFunc function, void *data) {
    QueryContext context = {index->index.bbfunc, object, bb, function, data};
    cpHashSetEach(index->shapes, (cpHashSetIteratorFunc)queryShape, &context);
}

typedef struct {
    cpSpatialIndexBBFunc box;
    void *object;
    cpVect a, b;
    cpFloat exit;
    cpSpatialIndexSegmentQueryFunc function;
    void *data;
} SegmentContext;

static void segmentShape(void *shape, SegmentContext *context) {
    if (cpBBIntersectsSegment(context->box(shape), context->a, context->b)) {
        cpFloat t = context->function(context->object, shape, context->data);
        if (t < context->exit) context->exit = t;
    }
}

static void segmentQuery(BallIndex *index, void *object, cpVect a, cpVect b, cpFloat exit,
                         cpSpatialIndexSegmentQueryFunc function, void *data) {
    SegmentContext context = {index->index.bbfunc, object, a, b, exit, function, data};
    cpHashSetEach(index->shapes, (cpHashSetIteratorFunc)segmentShape, &context);
}

static cpSpatialIndexClass ballIndexClass = {
    (cpSpatialIndexDestroyImpl)destroy,
    (cpSpatialIndexCountImpl)count,
    (cpSpatialIndexEachImpl)each,
    (cpSpatialIndexContainsImpl)contains,
    (cpSpatialIndexInsertImpl)insert,
    (cpSpatialIndexRemoveImpl)removeShape,
    (cpSpatialIndexReindexImpl)reindex,
    (cpSpatialIndexReindexObjectImpl)reindexObject,
    (cpSpatialIndexReindexQueryImpl)reindexQuery,
    (cpSpatialIndexQueryImpl)query,
    (cpSpatialIndexSegmentQueryImpl)segmentQuery,
};

int clumsy_chipmunk_index_balls_alone(void *opaque) {
    cpSpace *space = (cpSpace *)opaque;
    cpSpatialIndex *old = space->dynamicShapes;
    if (cpSpatialIndexCount(old) != 0 || old->staticIndex != space->staticShapes) return 0;
    cpSpatialIndex *statics = space->staticShapes;
    statics->dynamicIndex = NULL;
    cpSpatialIndexFree(old);
    BallIndex *index = (BallIndex *)cpcalloc(1, sizeof(BallIndex));
    cpSpatialIndexInit(&index->index, &ballIndexClass, (cpSpatialIndexBBFunc)cpShapeGetBB, statics);
    index->shapes = cpHashSetNew(0, sameShape);
    index->space = space;
    space->dynamicShapes = &index->index;
    return 1;
}

int clumsy_chipmunk_ball_index_lookups(void *opaque, unsigned long *made, unsigned long *skipped) {
    cpSpace *space = (cpSpace *)opaque;
    if (space->dynamicShapes->klass != &ballIndexClass) return 0;
    BallIndex *index = (BallIndex *)space->dynamicShapes;
    *made = index->made;
    *skipped = index->skipped;
    return 1;
}
