/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tables as modules.builtin.ranges, line for line as Linux 6.12's
 * scripts/generate_builtin_ranges.awk writes it from the link map, quirks
 * and all (export_ranges.c): export --format=ranges.
 */
#ifndef KMS_EXPORT_RANGES_H
#define KMS_EXPORT_RANGES_H

#include "inspector.h"

/*
 * Print @in's tables as modules.builtin.ranges on stdout.  @map, vmlinux's
 * link map, or NULL, gives the order the awk script reads vmlinux.o's
 * sections in, with vmlinux.o's map @o_map (NULL: vmlinux.o.map beside
 * @map).  0, or the exit status of inspector_fail().
 */
int export_ranges(struct inspector *in, const char *map, const char *o_map);

#endif /* KMS_EXPORT_RANGES_H */
