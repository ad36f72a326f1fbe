// SPDX-License-Identifier: GPL-2.0-or-later
/* no_openat2.c - run a command as on a kernel without openat2
 *
 * no_openat2 ERRNO CMD [ARGS...]: installs a seccomp filter that answers
 * every openat2(2) with ERRNO ("ENOSYS": kernel < 5.6; "EPERM": a container
 * runtime's filter), then execs CMD. nicnuma's fs-root layer must then take
 * its own walk (core/fsroot.c walk_in_root) and still stay inside a --root.
 * Exit 77 (skip) where this architecture's audit id is not known here.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

/* openat2 has one number on every architecture (the unified table, 5.6). */
#define NR_OPENAT2 437

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#endif

int main(int argc, char **argv)
{
	int err;

	if (argc < 3) {
		fprintf(stderr, "usage: no_openat2 ENOSYS|EPERM CMD [ARGS...]\n");
		return 2;
	}
	if (!strcmp(argv[1], "ENOSYS"))
		err = ENOSYS;
	else if (!strcmp(argv[1], "EPERM"))
		err = EPERM;
	else {
		fprintf(stderr, "no_openat2: %s: ENOSYS or EPERM\n", argv[1]);
		return 2;
	}
#ifdef ARCH
	{
		struct sock_filter f[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NR_OPENAT2, 0, 1),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ((unsigned)err & SECCOMP_RET_DATA)),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0) {
			perror("no_openat2: seccomp");
			return 2;
		}
	}
	execvp(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
#else
	(void)err;
	fprintf(stderr, "skip: no_openat2 knows no seccomp audit arch for this machine\n");
	return 77;
#endif
}
