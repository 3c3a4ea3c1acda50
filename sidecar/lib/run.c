// SPDX-License-Identifier: GPL-2.0
/* Run a helper program and collect what it prints (kms/run.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kms/run.h>
#include <kms/util.h>

struct buffer {
	char *data;
	size_t len, cap;
};

static int buffer_read(struct buffer *b, int fd)
{
	ssize_t n;

	if (KMS_RESERVE(b->data, b->cap, b->len + 4096))
		return -ENOMEM;
	n = read(fd, b->data + b->len, b->cap - b->len - 1);
	if (n < 0)
		return errno == EINTR ? 1 : -errno;
	b->len += n;
	b->data[b->len] = '\0';
	return n > 0;
}

/* In the child: apply @env, redirect, exec; never returns. */
static void child(char *const argv[], const char *cwd, const char *const env[],
		  int out_fd, int err_fd)
{
	int null_fd = open("/dev/null", O_RDONLY);
	size_t i;

	for (i = 0; env && env[i]; i++) {
		const char *eq = strchr(env[i], '=');
		char name[256];

		if (!eq || (size_t)(eq - env[i]) >= sizeof(name))
			continue;
		memcpy(name, env[i], eq - env[i]);
		name[eq - env[i]] = '\0';
		if (eq[1])
			setenv(name, eq + 1, 1);
		else
			unsetenv(name);
	}
	if (null_fd < 0 || dup2(null_fd, 0) < 0 || dup2(out_fd, 1) < 0 ||
	    dup2(err_fd, 2) < 0 || (cwd && chdir(cwd) < 0))
		_exit(127);
	execvp(argv[0], argv);
	_exit(127);
}

/*
 * @out_fd into @out and @err_fd into @err, as either has something, until
 * both end: 0, or -errno.
 */
static int read_outputs(int out_fd, int err_fd, struct buffer *out,
			struct buffer *err)
{
	struct pollfd fds[2];
	int rc = 0;

	fds[0] = (struct pollfd){ .fd = out_fd, .events = POLLIN };
	fds[1] = (struct pollfd){ .fd = err_fd, .events = POLLIN };
	while (rc >= 0 && (fds[0].fd >= 0 || fds[1].fd >= 0)) {
		int k;

		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			break;
		}
		for (k = 0; k < 2 && rc >= 0; k++) {
			if (fds[k].fd < 0 || !fds[k].revents)
				continue;
			rc = buffer_read(k ? err : out, fds[k].fd);
			if (rc == 0)
				fds[k].fd = -1;
		}
	}
	return rc;
}

/* Both ends of @fd, those open (not -1). */
static void close_pipe(const int fd[2])
{
	if (fd[0] >= 0)
		close(fd[0]);
	if (fd[1] >= 0)
		close(fd[1]);
}

struct kms_error *kms_run(char *const argv[], const char *cwd,
			  const char *const env[], struct kms_run_output *ret)
{
	struct buffer out = { 0 }, err = { 0 };
	int out_pipe[2] = { -1, -1 }, err_pipe[2] = { -1, -1 };
	struct kms_error *error = NULL;
	int status, rc;
	pid_t pid;

	if (pipe2(out_pipe, O_CLOEXEC) < 0 || pipe2(err_pipe, O_CLOEXEC) < 0) {
		error = kms_error_errno(argv[0], "cannot create a pipe");
		goto close;
	}
	pid = fork();
	if (pid < 0) {
		error = kms_error_errno(argv[0], "cannot start");
		goto close;
	}
	if (pid == 0)
		child(argv, cwd, env, out_pipe[1], err_pipe[1]);
	close(out_pipe[1]);
	close(err_pipe[1]);
	out_pipe[1] = err_pipe[1] = -1;

	rc = read_outputs(out_pipe[0], err_pipe[0], &out, &err);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (rc < 0) {
		errno = -rc;
		error = kms_error_errno(argv[0], "cannot read its output");
		goto close;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && !out.len &&
	    !err.len) {
		error = kms_error_file(argv[0], "cannot run it");
		goto close;
	}
	ret->out = out.data ? out.data : strdup("");
	ret->out_len = out.len;
	ret->err = err.data ? err.data : strdup("");
	ret->err_len = err.len;
	ret->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	out.data = err.data = NULL;
	if (!ret->out || !ret->err) {
		kms_run_output_release(ret);
		error = &kms_error_nomem;
	}
close:
	free(out.data);
	free(err.data);
	close_pipe(out_pipe);
	close_pipe(err_pipe);
	return error;
}

void kms_run_output_release(struct kms_run_output *out)
{
	free(out->out);
	free(out->err);
	out->out = out->err = NULL;
}
