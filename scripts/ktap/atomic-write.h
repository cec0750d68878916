/* SPDX-License-Identifier: GPL-2.0 */
/*
 * atomic-write.h - outputs written all or none, each replaced by a rename.
 */
#ifndef KTAP_ATOMIC_WRITE_H
#define KTAP_ATOMIC_WRITE_H

#include <stdio.h>

/**
 * struct output - one file to write
 * @path: where it goes
 * @fn: writes its contents to the stream it is given
 * @data: what @fn writes
 * @tmp: the temporary file while it is written; NULL to begin with
 */
struct output {
	const char *path;
	void (*fn)(FILE *f, const void *data);
	const void *data;
	char *tmp;
};

int write_outputs(struct output *outs, int n);

#endif /* KTAP_ATOMIC_WRITE_H */
