/* SPDX-License-Identifier: GPL-2.0 */
/* ptcompare PID ADDR's output: what engine/vtop.h resolved, text or JSON. */
#ifndef PTCOMPARE_VTOP_PRINT_H
#define PTCOMPARE_VTOP_PRINT_H

#include <stdio.h>
#include "engine/vtop.h"

void vtop_print_text(FILE *f, const struct vtop_view *v);
/* 0, or -EINVAL should the JSON writer be misused (json.h). */
int vtop_print_json(FILE *f, const struct vtop_view *v);

#endif /* PTCOMPARE_VTOP_PRINT_H */
