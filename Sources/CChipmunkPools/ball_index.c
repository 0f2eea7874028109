// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The moving shapes' index of a crowded world whose balls do not collide with each other
// (`swarm`): see clumsy_chipmunk_index_balls_alone in chipmunk_pools.h.

#include <chipmunk/chipmunk_private.h>
#include "chipmunk_pools.h"

typedef struct {
    cpSpatialIndex index;
    // The shapes, in a set of Chipmunk's own kind keyed by each shape's hashid, fed the same
    // inserts and removals in the same order as the spatial hash's set of handles: its
    // buckets, chains and growth, so the order `each` visits, are the hash's.
    cpHashSet *shapes;
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

// A step's search for pairs: the moving shapes against the static index only, in the order
// the spatial hash would visit them after its (here empty-handed) search among themselves.
static void reindexQuery(BallIndex *index, cpSpatialIndexQueryFunc function, void *data) {
    cpSpatialIndexCollideStatic(&index->index, index->index.staticIndex, function, data);
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
    space->dynamicShapes = &index->index;
    return 1;
}
