/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What perf's tools/include/linux/types.h gives perf's note decoder
 * (tools/perf/util/kallmodsyms.c), for kms-perf-judge.
 */
#ifndef KMS_PERFSHIM_LINUX_TYPES_H
#define KMS_PERFSHIM_LINUX_TYPES_H

#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;

#endif
