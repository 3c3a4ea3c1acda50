// SPDX-License-Identifier: GPL-2.0
/*
 * A vmlinux's release and a source tree's version (kms/kernel_version.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kms/kernel_version.h>
#include <kms/util.h>

#define BANNER "Linux version "
/* The banner's first line, as far as the tools read it. */
#define BANNER_MAX 512

/*
 * @len bytes at @p (no NUL), printable, into @buf of @size: false if
 * they do not fit or are not all printable.
 */
static bool copy_printable(const unsigned char *p, size_t len, char *buf,
			   size_t size)
{
	size_t i;

	if (!len || len >= size)
		return false;
	for (i = 0; i < len; i++)
		if (p[i] < ' ' || p[i] >= 0x7f)
			return false;
	memcpy(buf, p, len);
	buf[len] = '\0';
	return true;
}

struct kms_error *kms_elf_banner(struct kms_elf *elf, struct kms_banner *ret)
{
	const unsigned char *p = NULL, *nl, *hash;
	size_t n, len, k = sizeof(BANNER) - 1;
	struct kms_error *err;
	uint64_t addr;

	err = kms_elf_symbol(elf, "linux_banner", &addr);
	if (err) {
		kms_error_destroy(err);
		return kms_error_path(KMS_ERR_ABSENT, elf->path,
				      "no linux_banner: which kernel version it is cannot be told");
	}
	/* The banner may end its section (a test's image). */
	for (n = BANNER_MAX; n > k; n--) {
		err = kms_elf_bytes_at(elf, addr, n, &p);
		if (!err)
			break;
		kms_error_destroy(err);
		p = NULL;
	}
	if (!p || memcmp(p, BANNER, k))
		return kms_error_file(elf->path,
				      "linux_banner does not say \"" BANNER "...\"");
	nl = memchr(p, '\n', n);
	len = nl ? (size_t)(nl - p) : strnlen((const char *)p, n);
	for (n = k; n < len && p[n] != ' '; n++)
		;
	if (!copy_printable(p + k, n - k, ret->release, sizeof(ret->release)))
		return kms_error_file(elf->path,
				      "linux_banner holds no release a kernel could have");
	ret->uts_version[0] = '\0';
	for (hash = NULL; n < len; n++)
		if (p[n] == '#')
			hash = p + n;
	if (hash)
		copy_printable(hash, p + len - hash, ret->uts_version,
			       sizeof(ret->uts_version));
	return NULL;
}

/*
 * The value of the first "NAME = value" line of @text (the top-level
 * Makefile's version lines come first), trimmed, into @buf; "" if none.
 */
static void makefile_value(const char *text, const char *name, char *buf,
			   size_t size)
{
	size_t k = strlen(name), n;
	const char *line, *v;

	buf[0] = '\0';
	for (line = text; line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		if (strncmp(line, name, k))
			continue;
		v = line + k + strspn(line + k, " \t");
		if (*v != '=')
			continue;
		v++;
		v += strspn(v, " \t");
		n = strcspn(v, "\n");
		while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
			n--;
		if (n >= size)
			n = size - 1;
		memcpy(buf, v, n);
		buf[n] = '\0';
		return;
	}
}

struct kms_error *kms_tree_version(const char *srctree, char *buf,
				   size_t size)
{
	static const char *const names[] = {
		"VERSION", "PATCHLEVEL", "SUBLEVEL", "EXTRAVERSION"
	};
	char value[4][KMS_RELEASE_MAX + 1], *path, *text;
	struct kms_error *err;
	size_t len, i;
	int n;

	if (asprintf(&path, "%s/Makefile", srctree) < 0)
		return &kms_error_nomem;
	err = kms_read_file(path, 0, &text, &len);
	if (err) {
		free(path);
		return err;
	}
	for (i = 0; i < KMS_ARRAY_SIZE(names); i++)
		makefile_value(text, names[i], value[i], sizeof(value[i]));
	free(text);
	if (!isdigit((unsigned char)value[0][0])) {
		err = kms_error_file(path, "no VERSION line: not a kernel source tree");
		free(path);
		return err;
	}
	free(path);
	/* As KERNELVERSION: $(if) takes any word, 0 too, for present. */
	n = snprintf(buf, size, "%s%s%s%s%s%s", value[0],
		     value[1][0] ? "." : "", value[1],
		     value[1][0] && value[2][0] ? "." : "",
		     value[1][0] ? value[2] : "", value[3]);
	if (n < 0 || (size_t)n >= size)
		return kms_error_fmt("%s/Makefile: the version is too long",
				     srctree);
	return NULL;
}

/* Does @release begin with @version, as kms_banner_of_version() says? */
static bool of_version(const char *release, size_t len, const char *version)
{
	size_t k = strlen(version);
	const char *rest = release + k;

	if (len < k || strncmp(release, version, k))
		return false;
	len -= k;
	if ((len && isdigit((unsigned char)rest[0])) ||
	    (len > 1 && rest[0] == '.' && isdigit((unsigned char)rest[1])))
		return false;
	return !(len > 3 && strncmp(rest, "-rc", 3) == 0 &&
		 isdigit((unsigned char)rest[3]));
}

bool kms_banner_of_version(const struct kms_banner *banner,
			   const char *version)
{
	const char *w = banner->uts_version;
	size_t n;

	if (of_version(banner->release, strlen(banner->release), version))
		return true;
	for (; *w; w += n) {
		w += strspn(w, " ");
		n = strcspn(w, " ");
		if (n && of_version(w, n, version))
			return true;
	}
	return false;
}
