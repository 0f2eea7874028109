#include <chipmunk/chipmunk_private.h>
#include "chipmunk_pools.h"

void clumsy_chipmunk_grow_pools(void *opaque, int arbiters) {
    cpSpace *space = (cpSpace *)opaque;
    // As cpSpaceArbiterSetTrans (cpSpaceStep.c) does when the pool is empty.
    if (space->pooledArbiters->num == 0) {
        int count = CP_BUFFER_BYTES / sizeof(cpArbiter);
        cpArbiter *buffer = (cpArbiter *)cpcalloc(1, CP_BUFFER_BYTES);
        cpArrayPush(space->allocatedBuffers, buffer);
        for (int i = 0; i < count; i++) cpArrayPush(space->pooledArbiters, buffer + i);
    }
    cpArray *array = space->arbiters;
    if (array->max < arbiters) {
        array->max = arbiters;
        array->arr = (void **)cprealloc(array->arr, (size_t)arbiters * sizeof(void *));
    }
}
