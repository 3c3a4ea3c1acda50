// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's note parser again, fed uncompressed images: see
 * note_of_image() in fuzz_kernel_note.c.
 */
#define KSHIM_IMAGE_INPUT 1
#include "fuzz_kernel_note.c"
