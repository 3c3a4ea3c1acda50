savedcmd_kernel/smp.o := gcc -DKBUILD_MODFILE='"kernel/smp"' -Wp,-MMD,kernel/.smp.o.d -c -o kernel/smp.o kernel/smp.c

