# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by run-modularity.sh and run-patches.sh, after tests/lib.sh: the
# mini tree, configured by the test kernel's kconfig (need_kernel).

# $tests_dir: tests/lib.sh's.
# shellcheck disable=SC2154
# shellcheck source=SCRIPTDIR/../kernel/kernels.sh
. "$tests_dir/kernel/kernels.sh"

# mini_tree_configured CONFIG...: the mini tree in src/ and its build
# directory obj/, with the test kernel's kconfig conf (need_kernel's
# $kbuild) and a .config that sets each CONFIG_ symbol named to y.
mini_tree_configured() {
	make_mini_tree src
	mkdir -p obj/scripts/kconfig
	ln -s "$kbuild/scripts/kconfig/conf" obj/scripts/kconfig/conf
	printf 'CONFIG_%s=y\n' "$@" > obj/.config
}

make_mini_tree() {
	local t=$1
	mkdir -p "$t"/{a,b/sub,dtri,dbool,lib,arch/x86/lib,arch/x86/drv,cond,toplib}
	cat > "$t/Kconfig" <<'KCONFIG'
mainmenu "mini"
config MODULES
	bool "modules"
	default y
	modules
config A_TRI
	tristate "a"
config B_BOOL
	bool "b"
config C_DEFTRI
	def_tristate y
config D_DEFBOOL
	def_bool y
config E_LATE
	prompt "late"
	depends on MODULES
config DIR_TRI
	tristate "dir"
config DIR_BOOL
	bool "dir bool"
config COMP_TRI
	tristate "composite"
config MEMBER_BOOL
	bool "member"
config F_NEEDS_Y
	bool "needs A_TRI at y"
	depends on A_TRI = y
source "a/Kconfig"
KCONFIG
	cat > "$t/a/Kconfig" <<'KCONFIG'
# The type of E_LATE comes with this later definition.
config E_LATE
	tristate
KCONFIG
	cat > "$t/Kbuild" <<'MK'
obj-y += a/ b/ lib/ cond/
obj-$(CONFIG_DIR_TRI) += dtri/
obj-$(CONFIG_DIR_BOOL) += dbool/
obj-y += $(ARCH_CORE) $(ARCH_LIB) $(ARCH_DRIVERS)
MK
	cat > "$t/a/Makefile" <<'MK'
ccflags-y += $(call cc-option,-fno-such-flag)
obj-$(CONFIG_A_TRI) += a_tri.o
obj-$(CONFIG_B_BOOL) += b_bool.o
obj-y += always.o
obj-$(CONFIG_C_DEFTRI) += c_deftri.o
obj-$(CONFIG_D_DEFBOOL) += d_defbool.o
obj-$(CONFIG_E_LATE) += e_late.o
obj-$(CONFIG_F_NEEDS_Y) += f_needs_y.o
MK
	cat > "$t/b/Makefile" <<'MK'
obj-$(CONFIG_COMP_TRI) += comp.o
comp-y := comp_main.o sub/comp_sub.o
comp-$(CONFIG_MEMBER_BOOL) += comp_member.o
obj-$(CONFIG_B_BOOL) += bcomp.o
bcomp-objs := bcomp_x.o \
	bcomp_y.o
obj-$(CONFIG_A_TRI) += both.o
obj-y += both.o
MK
	cat > "$t/dtri/Makefile" <<'MK'
obj-y += in_tri_dir.o
obj-$(CONFIG_A_TRI) += dtri_mod.o
MK
	cat > "$t/dbool/Makefile" <<'MK'
obj-$(CONFIG_A_TRI) += dbool_mod.o
MK
	cat > "$t/lib/Makefile" <<'MK'
lib-y += libthing.o
obj-y += libobj.o
MK
	cat > "$t/cond/Makefile" <<'MK'
# Only with A_TRI=y: gone once tristates are evaluated at m.
ifeq ($(CONFIG_A_TRI),y)
obj-y += cond_y.o
endif
MK
	# The top-level Makefile's own directories, before the arch's.
	cat > "$t/Makefile" <<'MK'
all: vmlinux
core-y		:=
drivers-y	:=
libs-y		:= toplib/
include $(srctree)/arch/$(SRCARCH)/Makefile
MK
	echo 'lib-y += toplib_x.o' > "$t/toplib/Makefile"
	# Variables, rules, recipes and $(shell) as an arch Makefile has them.
	cat > "$t/arch/x86/Makefile" <<'MK'
KBUILD_CFLAGS += -O2
ifeq ($(CONFIG_B_BOOL),y)
        BITS := 64
else
        BITS := 32
endif
export BITS
HOSTNAME := $(shell echo this must not run >&2)
core-y += arch/x86/
libs-y += arch/x86/lib/
drivers-$(CONFIG_B_BOOL) += arch/x86/drv/ \
	arch/x86/drv2/
archclean:
	$(Q)echo obj-y := broken.o
define archhelp
  obj-y := broken.o
endef
MK
	cat > "$t/arch/x86/Kbuild" <<'MK'
obj-$(CONFIG_A_TRI) += archmod.o
obj-y += archcore.o head_$(BITS).o
MK
	mkdir -p "$t/arch/x86/drv2"
	echo 'obj-y += drv2.o' > "$t/arch/x86/drv2/Makefile"
	echo 'lib-y += archlib.o' > "$t/arch/x86/lib/Makefile"
	echo 'obj-$(CONFIG_A_TRI) += drvmod.o' > "$t/arch/x86/drv/Makefile"
}
