/* SPDX-License-Identifier: GPL-2.0 */
/* ktap-junit.h - the JUnit XML writer of ktap-parse. */
#ifndef KTAP_JUNIT_H
#define KTAP_JUNIT_H

#include <stdio.h>

#include "ktap.h"

void ktap_write_junit(const struct ktap_run *r, FILE *f);

#endif /* KTAP_JUNIT_H */
