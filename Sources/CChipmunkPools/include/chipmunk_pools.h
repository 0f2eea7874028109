// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

#ifndef CHIPMUNK_POOLS_H
#define CHIPMUNK_POOLS_H

// Grows a Chipmunk space's pools before its first step (and runs the World's rules after each
// sub-step, rules.c), in C because it resets a counter in
// Chipmunk's private structure (chipmunk_private.h): the space is passed untyped, so this
// header does not declare cpSpace a second time beside CChipmunk's.

/// Gives the empty `space` (a cpSpace *) room for `contacts` contacts a step, by a rehearsal:
/// stand-in balls touching stand-in static circles in exactly `contacts` pairs (the balls not
/// each other) are stepped (`step` seconds) for
/// as many steps as Chipmunk keeps a contact, then everything is taken out and freed. Chipmunk
/// grows what it needs as it goes and keeps it when the stand-ins leave: the ring of contact
/// buffers, the arbiter pool, the step's arbiter array, and the cache of arbiters by shape
/// pair (its table and its pool of bins). Nothing of the rehearsal stays but memory and
/// Chipmunk's time stamps, which it only compares with each other: the cache's larger table
/// changes only the order in which the end-of-step filter visits cached arbiters, each on its
/// own (it returns stale ones to the pool and calls separate callbacks, of which Clumsy installs
/// none), and the shape numbering is put back.
void clumsy_chipmunk_grow_pools(void *space, int contacts, double step);

/// Numbers the next shape added to `space` (a cpSpace *) `shapes`, as Chipmunk numbers the
/// shapes of a space in the order they are added, and sets its last step length to `step`, as
/// in a new space rehearsed at that step: with every ball taken out of the space, what
/// `World.restore` needs to put them back as into a new space.
void clumsy_chipmunk_renumber(void *space, unsigned long shapes, double step);

/// The bass ball's rules after a sub-step (World.enforceRules): its speed `speed` (a ball at
/// rest or with a speed not finite sent off diagonally), its spin 0 (set when `wakes` or when
/// not exactly +0, which also wakes it); nonzero when its centre is outside minX…maxX ×
/// minY…maxY (the caller puts it back).
int clumsy_bass_rule(void *bass, double speed, int wakes, double minX, double minY, double maxX, double maxY);

/// The piano balls' rules after a sub-step, for `bodies[first]`… up to `count`: a speed over
/// `limit` brought down to it; returns the first ball whose centre is outside minX…maxX ×
/// minY…maxY (the caller puts it back and goes on from the next), or `count`.
long clumsy_piano_rule(void *bodies, long first, long count, double limit, double minX, double minY,
                       double maxX, double maxY);

/// Makes `body` (a cpBody *) move as Chipmunk moves it, to the bit, for less: its velocity and
/// position updates without Chipmunk's sanity checks (on in Debian's build), its rotation's
/// cosine and sine computed only when its angle changes.
void clumsy_ball_moves_lean(void *body);

/// Makes `body` (a cpBody *) ignore gravity and damping: its velocity changes only by impulses.
void clumsy_bass_ignores_gravity(void *body);

/// For a crowded world whose balls collide with nothing that moves (`piano.collide` false; the
/// bass ball and the piano balls never meet): replaces the spatial hash of `space`'s moving
/// shapes (cpSpaceUseSpatialHash; it must still be empty) by an index that never looks for
/// pairs among them, where the hash found every overlapping pair of balls only for Chipmunk's
/// filter to reject it. Each step still collides every moving shape with the static index, in
/// the order the hash would (the same kind of set, fed the same inserts and removals), so the
/// contacts, their order and every result stay the same. Returns 0 and changes nothing when the
/// index is not empty or not tied to the space's static index. While the space does not
/// sleep, a moving shape is not looked up in the static index when no static shape its filter
/// lets it meet is near it (a grid remade each step; Chipmunk would reject every shape the
/// lookup found).
int clumsy_chipmunk_index_balls_alone(void *space);

/// The static-index lookups of `space`'s ball index (clumsy_chipmunk_index_balls_alone) so far:
/// made, and left out because no static shape was near. Returns 0 when the space has no such index.
int clumsy_chipmunk_ball_index_lookups(void *space, unsigned long *made, unsigned long *skipped);

#endif
