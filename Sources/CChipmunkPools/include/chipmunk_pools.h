#ifndef CHIPMUNK_POOLS_H
#define CHIPMUNK_POOLS_H

// Grows a Chipmunk space's pools before its first step, in C because they are Chipmunk's
// private structures (chipmunk_private.h): the space is passed untyped, so this header does
// not declare cpSpace a second time beside CChipmunk's.

/// Fills the empty arbiter pool of `space` (a cpSpace *) as Chipmunk fills it at the first
/// contact (one CP_BUFFER_BYTES buffer of arbiters, pushed in the same order), and gives the
/// step's arbiter array room for `arbiters` entries. Only memory is prepared: the arbiters
/// Chipmunk takes from the pool are the same ones, in the same order.
void clumsy_chipmunk_grow_pools(void *space, int arbiters);

#endif
