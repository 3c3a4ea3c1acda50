// SPDX-License-Identifier: GPL-2.0
/* Array growth, whole-file read, binary searches (kms/util.h). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <kms/util.h>

struct kms_error *kms_reserve(void *arrp, size_t *cap, size_t need,
			      size_t size)
{
	void **arr = arrp;
	size_t ncap = *cap ? *cap : 16;
	void *n;

	if (need <= *cap)
		return NULL;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return &kms_error_nomem;
		ncap *= 2;
	}
	if (ncap > SIZE_MAX / size)
		return &kms_error_nomem;
	n = realloc(*arr, ncap * size);
	if (!n)
		return &kms_error_nomem;
	*arr = n;
	*cap = ncap;
	return NULL;
}

struct kms_error *kms_read_file(const char *path, size_t max, char **ret_data,
				size_t *ret_size)
{
	struct kms_error *err = NULL;
	char *data = NULL;
	size_t len = 0, cap = 0, n;
	FILE *f = fopen(path, "r");

	if (!f)
		return kms_error_errno(path, "cannot open");
	do {
		if (max && len > max) {
			err = kms_error_file(path, "larger than %zu bytes", max);
			break;
		}
		err = KMS_RESERVE(data, cap, len + 65536);
		if (err)
			break;
		n = fread(data + len, 1, cap - len - 1, f);
		len += n;
	} while (n);
	if (!err && ferror(f))
		err = kms_error_errno(path, "cannot read");
	fclose(f);
	if (err) {
		free(data);
		return err;
	}
	data[len] = '\0';
	*ret_data = data;
	*ret_size = len;
	return NULL;
}

size_t kms_upper_bound(const void *key, const void *base, size_t n,
		       size_t size,
		       int (*cmp)(const void *key, const void *element))
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp(key, (const char *)base + mid * size) < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

size_t kms_lower_bound(const void *key, const void *base, size_t n,
		       size_t size,
		       int (*cmp)(const void *key, const void *element))
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp(key, (const char *)base + mid * size) <= 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

char *kms_path_normalize(char *s)
{
	size_t root = *s == '/', kept = 0;	/* components ".." can undo */
	char *in = s + root, *out = s + root;

	while (*in) {
		char *comp = in;
		size_t len = strcspn(in, "/");

		in += len;
		while (*in == '/')
			in++;
		if (len == 0 || (len == 1 && comp[0] == '.'))
			continue;
		if (len == 2 && comp[0] == '.' && comp[1] == '.' && kept) {
			while (out > s + root && out[-1] != '/')
				out--;
			if (out > s + root)
				out--;		/* the '/' before it */
			kept--;
			continue;
		}
		/* Writing before @comp: never over what is still to read. */
		if (out > s + root)
			*out++ = '/';
		memmove(out, comp, len);
		out += len;
		kept += !(len == 2 && comp[0] == '.' && comp[1] == '.');
	}
	*out = '\0';
	return s;
}

char *kms_underscores(char *s)
{
	for (char *p = s; *p; p++)
		if (*p == '-')
			*p = '_';
	return s;
}
