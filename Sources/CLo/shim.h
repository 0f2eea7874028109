// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Clumsy's liblo shim: OSC messages out through lo_address, and OSC packets received on
// Clumsy's own UDP socket decoded with lo_message_deserialise (so the listening address is
// exactly the one asked for: 127.0.0.1 unless named otherwise).
#ifndef CLUMSY_LO_SHIM_H
#define CLUMSY_LO_SHIM_H

#include <lo/lo.h>
#include <lo/lo_lowlevel.h>

/* The numeric value of argument `index` of type `type` ('i','h','f','d'); 0 otherwise. */
static inline double clumsy_lo_number(lo_arg **argv, int index, char type) {
    lo_arg *a = argv[index];
    switch (type) {
    case 'i': return (double)a->i;
    case 'h': return (double)a->h;
    case 'f': return (double)a->f;
    case 'd': return a->d;
    default: return 0;
    }
}

/* The string argument `index` (type 's' or 'S'). */
static inline const char *clumsy_lo_string(lo_arg **argv, int index) {
    return &argv[index]->s;
}

#endif
