/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptcompare's sessions with ptwalk: opened through user/endpoint.c as the
 * options say, and on failure the one-line diagnosis, with the facts
 * (module loaded? lockdown?) gathered from the system.
 */
#ifndef PTCOMPARE_CONNECT_H
#define PTCOMPARE_CONNECT_H

#include <stddef.h>
#include <stdint.h>
#include "parse/cli.h"
#include "io/endpoint.h"
#include "model/page.h"

/*
 * The first session: an fd with ep filled, or -1 with the kind of failure
 * in *why and the message in msg.
 */
int connect_ptwalk(const struct cli_options *o, struct endpoint *ep,
		   enum failure *why, char *msg, size_t size);

/* Another session the same way in as ep: an fd, or -1 as above. */
int connect_again(const struct endpoint *ep, enum failure *why, char *msg,
		  size_t size);

/*
 * The entry bits this kernel lacks, as the way in that opened (ep) says;
 * 0 where that cannot be read, so that the report then treats every flag
 * as this architecture's rather than fail.
 */
uint32_t connect_absent_flags(const struct endpoint *ep);

/*
 * The kernel's page geometry from the module the endpoint leads to, checked
 * against the running kernel's page size: 0, or -1 with the one-line reason
 * in msg (a module for another kernel, a file that does not parse).
 */
int connect_geometry(const struct endpoint *ep, struct page_geom *g,
		     char *msg, size_t size);

/* For --version: which way in the options lead to now, or why none. */
void connect_describe(const struct cli_options *o, char *line, size_t size);

#endif /* PTCOMPARE_CONNECT_H */
