// SPDX-License-Identifier: GPL-2.0
/* folio_maybe_dma_pinned() (5.16; page_maybe_dma_pinned() is gone in 6.12). */
#include <linux/mm.h>

__typeof__(folio_maybe_dma_pinned) *ptwalk_conftest = folio_maybe_dma_pinned;
