savedcmd_kernel/sched/core.o := gcc -DKBUILD_MODFILE='"kernel/sched/core"' -Wp,-MMD,kernel/sched/.core.o.d -c -o kernel/sched/core.o kernel/sched/core.c

