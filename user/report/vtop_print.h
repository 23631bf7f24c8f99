/* SPDX-License-Identifier: GPL-2.0 */
/* ptcompare PID ADDR's output: what engine/vtop.h resolved, text or JSON. */
#ifndef PTCOMPARE_VTOP_PRINT_H
#define PTCOMPARE_VTOP_PRINT_H

#include <stdio.h>
#include "engine/vtop.h"

void vtop_print_text(FILE *f, const struct vtop_view *v);
void vtop_print_json(FILE *f, const struct vtop_view *v);

#endif /* PTCOMPARE_VTOP_PRINT_H */
