# SPDX-License-Identifier: GPL-2.0
#
# Evaluate a kernel tree's kbuild Makefiles, as scripts/Makefile.build and
# scripts/Makefile.lib do, without building anything: kallmodsyms-gen runs
# it (embedded) with a config in which every tristate symbol set to y is m,
# so that what could have been a module lands in obj-m; or, with
# kms-composites=y, with the config a kernel was built with, to learn which
# objects make each of its built-in multi-object modules (--dwarf -S).
#
#   make -r -R -s -f modularity.mk srctree=DIR config=FILE arch=FILE \
#	[kms-composites=y]
#
# For each directory reached from the top-level Kbuild it prints
#   Y dir/obj.o              linked into vmlinux (real-obj-y)
#   M dir/obj.o dir/mod.o    part of module mod (real-obj-m)
#   L dir/obj.o              in the directory's lib.a (lib-y)
#   C dir/obj.o dir/comp.o   part of composite comp in obj-y (foo-y, foo-objs):
#                            built in, and module comp if modules.builtin
#                            lists it (kbuild's KBUILD_MODFILE); only with
#                            kms-composites=y
#   D dir/sub                a subdirectory it descends into
# Paths are relative to the top of the tree.

.DEFAULT_GOAL := kms-all
kms-all: ; @:

include $(config)
# The host's SUBARCH, which um's Makefile reads, as the top-level Makefile
# has it.
-include $(srctree)/scripts/subarch.include
# The top-level Makefile's own core-y, libs-y and drivers-y (libs-y :=
# lib/), then what arch/$(SRCARCH)/Makefile adds to them and the variables
# it sets (the caller keeps only those lines); the top-level Makefile
# exports the lists as ARCH_CORE, ARCH_LIB and ARCH_DRIVERS.
include $(arch)
ARCH_CORE := $(core-y)
ARCH_LIB := $(filter %/, $(libs-y))
ARCH_DRIVERS := $(drivers-y) $(drivers-m)
undefine core-y
undefine libs-y
undefine drivers-y
undefine drivers-m

# scripts/Kbuild.include helpers that Makefiles call for flags; compiler
# flags do not decide what is linked, so no compiler is run.
cc-option = $(2)
cc-option-yn = n
cc-disable-warning =
cc-ifversion = $(4)
as-option = $(2)
as-instr = $(3)
ld-option = $(2)
ld-ifversion = $(4)
rustc-option = $(2)
cc-cross-prefix =

# As in scripts/Makefile.lib.
suffix-search = $(strip $(foreach s, $3, $($(1:%$(strip $2)=%$s))))
multi-search = $(sort $(foreach m, $1, $(if $(call suffix-search, $m, $2, $3 -), $m)))
real-search = $(foreach m, $1, $(if $(call suffix-search, $m, $2, $3 -), $(call suffix-search, $m, $2, $3), $m))

kms-prefix = $(if $(filter .,$(1)),,$(1)/)

# Up to Linux 6.9 Makefile.build has "src := $(obj)", a path that kbuild
# finds in the sources through --include-dir (given by the caller), and
# Makefiles say $(srctree)/$(src); later ones put the sources' path in src.
kms-relative-src := $(shell grep -sqx 'src := $$(obj)' $(srctree)/scripts/Makefile.build && echo y)

# kms-dir DIR: read DIR's Kbuild (or Makefile) as Makefile.build would,
# print what it links, forget its variables, then do its subdirectories.
define kms-dir
obj := $(1)
src := $(if $(kms-relative-src),$(1),$(srctree)/$(1))
obj-y :=
obj-m :=
lib-y :=
lib-m :=
subdir-y :=
subdir-m :=
kms-before := $$(.VARIABLES)
include $$(or $$(wildcard $(srctree)/$(1)/Kbuild),$(srctree)/$(1)/Makefile)
obj-m := $$(filter-out $$(obj-y),$$(obj-m))
lib-y := $$(filter-out $$(obj-y), $$(sort $$(lib-y) $$(lib-m)))
kms-sub-$(1) := $$(sort $$(subdir-y) $$(subdir-m) $$(patsubst %/,%,$$(filter %/, $$(obj-y) $$(obj-m))))
$$(foreach o,$$(call real-search,$$(filter-out %/,$$(obj-y)),.o,-objs -y),$$(info Y $(call kms-prefix,$(1))$$(o)))
$(if $(kms-composites),$$(foreach c,$$(call multi-search,$$(filter-out %/,$$(obj-y)),.o,-objs -y),$$(foreach o,$$(call real-search,$$(c),.o,-objs -y),$$(info C $(call kms-prefix,$(1))$$(o) $(call kms-prefix,$(1))$$(c)))))
$$(foreach m,$$(filter-out %/,$$(obj-m)),$$(foreach o,$$(call real-search,$$(m),.o,-objs -y -m),$$(info M $(call kms-prefix,$(1))$$(o) $(call kms-prefix,$(1))$$(m))))
$$(foreach o,$$(lib-y),$$(info L $(call kms-prefix,$(1))$$(o)))
$$(foreach d,$$(kms-sub-$(1)),$$(info D $(call kms-prefix,$(1))$$(d)))
$$(foreach v,$$(filter-out $$(kms-before) kms-before kms-sub-%,$$(.VARIABLES)),$$(eval undefine $$(v)))
$$(foreach d,$$(kms-sub-$(1)),$$(eval $$(call kms-dir,$(call kms-prefix,$(1))$$(d))))
endef

$(eval $(call kms-dir,.))
