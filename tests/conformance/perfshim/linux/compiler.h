/* SPDX-License-Identifier: GPL-2.0 */
/* What perf's tools/include/linux/compiler.h gives its note decoder. */
#ifndef KMS_PERFSHIM_LINUX_COMPILER_H
#define KMS_PERFSHIM_LINUX_COMPILER_H

#define __maybe_unused	__attribute__((unused))
#define __printf(a, b)	__attribute__((format(printf, a, b)))

#endif
