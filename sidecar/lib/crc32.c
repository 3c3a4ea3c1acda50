// SPDX-License-Identifier: GPL-2.0
/* CRC-32/ISO-HDLC, the note image's checksum (kms/crc32.h). */
#include <kms/crc32.h>

uint32_t kms_crc32(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint32_t crc = 0xffffffffu;
	int bit;

	/* Bitwise: the blob is checked once per load, speed does not matter. */
	while (len--) {
		crc ^= *p++;
		for (bit = 0; bit < 8; bit++)
			crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
	}
	return ~crc;
}
