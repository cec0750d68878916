/* SPDX-License-Identifier: GPL-2.0 */
/* ktap-json.h - the JSON writer of ktap-parse. */
#ifndef KTAP_JSON_H
#define KTAP_JSON_H

#include <stdio.h>

#include "ktap.h"

void ktap_write_json(const struct ktap_run *r, FILE *f);

#endif /* KTAP_JSON_H */
