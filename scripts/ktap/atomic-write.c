// SPDX-License-Identifier: GPL-2.0
/*
 * atomic-write.c - outputs written all or none.
 *
 * An output is written to a temporary file created exclusively beside it
 * (same directory, so the rename is atomic), checked, fsync'ed and renamed
 * over the target only when every output is complete: on a full disk or a
 * failed write the old files stay as they were and nothing is left behind.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic-write.h"
#include "util.h"

/* out_fail() - one error line for @o, its temporary file removed. */
static int out_fail(struct output *o, const char *why)
{
	fprintf(stderr, "%s: error: %s: cannot write it (%s); the old one is kept\n",
		prog, o->path, why);
	if (o->tmp) {
		unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
	}
	return -1;
}

/* out_prepare() - @o written in full to its temporary file, or an error line. */
static int out_prepare(struct output *o)
{
	const char *slash = strrchr(o->path, '/');
	struct stat st;
	mode_t mask;
	FILE *f;
	int fd, err;

	if (!lstat(o->path, &st) && S_ISLNK(st.st_mode)) {
		fprintf(stderr, "%s: error: %s: a symlink: refusing to write through it\n",
			prog, o->path);
		return -1;
	}
	if (slash)
		o->tmp = xasprintf("%.*s/.%s.tmp.XXXXXX", (int)(slash - o->path),
				   o->path, slash + 1);
	else
		o->tmp = xasprintf(".%s.tmp.XXXXXX", o->path);
	fd = mkstemp(o->tmp);	/* O_CREAT | O_EXCL */
	if (fd < 0) {
		free(o->tmp);
		o->tmp = NULL;
		return out_fail(o, strerror(errno));
	}
	/* The mode a plain fopen() would have given, not mkstemp's 0600. */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask)) {
		err = errno;
		close(fd);
		return out_fail(o, strerror(err));
	}
	f = fdopen(fd, "w");
	if (!f) {
		err = errno;
		close(fd);
		return out_fail(o, strerror(err));
	}
	errno = 0;
	o->fn(f, o->data);
	if (fflush(f) || ferror(f)) {
		err = errno ? errno : EIO;
		fclose(f);
		return out_fail(o, strerror(err));
	}
	if (fsync(fileno(f))) {
		err = errno;
		fclose(f);
		return out_fail(o, strerror(err));
	}
	if (fclose(f))
		return out_fail(o, strerror(errno));
	return 0;
}

/* out_commit() - @o renamed into place, or an error line. */
static int out_commit(struct output *o)
{
	if (rename(o->tmp, o->path))
		return out_fail(o, strerror(errno));
	free(o->tmp);
	o->tmp = NULL;
	return 0;
}

/**
 * write_outputs() - the outputs of @outs, all or none
 * @outs: the outputs
 * @n: how many
 *
 * Each is written in full to a temporary file before any is renamed into
 * place; on the first that fails, one error line is printed and every
 * temporary file removed.
 *
 * Return: 0, or -1 when the old files were kept.
 */
int write_outputs(struct output *outs, int n)
{
	int i, rc = 0;

	for (i = 0; i < n && !rc; i++)
		rc = out_prepare(&outs[i]);
	for (i = 0; i < n; i++) {
		if (rc) {
			if (outs[i].tmp) {
				unlink(outs[i].tmp);
				free(outs[i].tmp);
				outs[i].tmp = NULL;
			}
		} else if (out_commit(&outs[i])) {
			rc = -1;
		}
	}
	return rc;
}

