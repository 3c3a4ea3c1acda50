/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Can an object be a module in some configuration of some architecture?
 * The per-architecture analysis answers for the lines allyesconfig turns
 * on, and kbuild drops from obj-m an object another line puts in obj-y:
 * drivers/scsi/wd33c93.o is in obj-y through a bool on one m68k machine,
 * and a module through four tristates on others (m68k, mips).  So every
 * Makefile line that names the object is read back to its Kconfig
 * symbol, whose type comes from every Kconfig file of the tree (a symbol
 * that is tristate in any of them counts as one).
 */
#ifndef KMS_AUDIT_EXACT_H
#define KMS_AUDIT_EXACT_H

#include <kms/error.h>

struct exact;

/* The tristate symbols of every Kconfig* file under @srctree. */
struct kms_error *exact_open(const char *srctree, struct exact **ret);

/*
 * NULL when no Makefile line can make @obj ("drivers/scsi/wd33c93.o")
 * a module; else the first line that can, as a sentence
 * ("obj-$(CONFIG_A3000_SCSI) in drivers/scsi, CONFIG_A3000_SCSI is
 * tristate").  Lines are looked for in the object's directory and its
 * parents, and through composite objects (foo-y += obj.o: the lines of
 * foo.o).
 */
char *exact_module_line(const struct exact *e, const char *obj);

void exact_close(struct exact *e);

#endif /* KMS_AUDIT_EXACT_H */
