/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KMS_CRC32_H
#define KMS_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* CRC-32/ISO-HDLC of @len bytes, the value zlib's crc32(0, buf, len) gives. */
uint32_t kms_crc32(const void *buf, size_t len);

#endif /* KMS_CRC32_H */
