// SPDX-License-Identifier: GPL-2.0
/*
 * ptcompare --dma-track: one ioctl on a ptwalk session, its answer said
 * in one line (or one JSON object).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <unistd.h>
#include "cmd/connect.h"
#include "cmd/mode_dma_track.h"
#include "io/ptwalk_client.h"
#include "report/diagnose.h"

int mode_dma_track(const struct cli_options *o, char *msg, size_t size)
{
	enum failure why;
	struct endpoint ep;
	int fd = connect_ptwalk(o, &ep, &why, msg, size);
	int err;

	if (fd < 0)
		return (int)why;
	err = ptwalk_dma_track(fd, o->dma_track, o->dma_off);
	close(fd);
	if (err)
		return (int)diagnose_dma_track(-err, o->dma_track, o->dma_off,
					       msg, size);
	if (o->json)
		printf("{\"device\": \"%s\", \"dma_track\": %s}\n",
		       o->dma_track, o->dma_off ? "false" : "true");
	else if (o->dma_off)
		printf("%s: DMA mappings no longer tracked\n", o->dma_track);
	else
		printf("%s: DMA mappings tracked from now on (until --off, or ptwalk.ko's dma_track_idle seconds after the last --dma)\n",
		       o->dma_track);
	return EXIT_OK;
}
