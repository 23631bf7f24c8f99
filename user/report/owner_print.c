// SPDX-License-Identifier: GPL-2.0
/* The "stopped for" lines and keys of a device view's report. */
#include <inttypes.h>
#include "report/owner_print.h"

const char *domain_read_name(enum domain_read how)
{
	switch (how) {
	case DOMAIN_READ_OWNER_STOPPED:
		return "owner-stopped";
	case DOMAIN_READ_LIVE:
		return "live";
	default:
		return NULL;
	}
}

void owner_print_text(FILE *f, enum domain_read how,
		      const struct domain_owners *ow)
{
	if (how == DOMAIN_READ_LIVE) {
		fprintf(f, "domain read live: its owner could unmap during the read (frames may be stale or garbage)\n");
		return;
	}
	if (how != DOMAIN_READ_OWNER_STOPPED || !ow)
		return;
	for (size_t i = 0; i < ow->n; i++) {
		const struct domain_owner *o = &ow->o[i];

		if (o->state == OWNER_STOPPED_BY_US)
			fprintf(f, "owner pid %d (%s) stopped for %" PRIu64
				".%" PRIu64 " ms\n", (int)o->pid, o->comm,
				o->held_ns / 1000000,
				o->held_ns / 100000 % 10);
		else
			fprintf(f, "owner pid %d (%s) already stopped: left so\n",
				(int)o->pid, o->comm);
	}
}

void owner_print_json(struct json_writer *w, enum domain_read how,
		      const struct domain_owners *ow)
{
	jw_key(w, "read");
	jw_str_or_null(w, domain_read_name(how));
	jw_key(w, "owners");
	jw_begin_array(w);
	for (size_t i = 0; how == DOMAIN_READ_OWNER_STOPPED && ow && i < ow->n;
	     i++) {
		const struct domain_owner *o = &ow->o[i];
		bool ours = o->state == OWNER_STOPPED_BY_US;

		jw_begin_object(w);
		jw_kv_i64(w, "pid", o->pid);
		jw_kv_str(w, "comm", o->comm);
		jw_kv_u64(w, "stopped_us", ours ? o->held_ns / 1000 : 0);
		jw_kv_str(w, "by", ours ? "ptcompare" : "already");
		jw_end_object(w);
	}
	jw_end_array(w);
}
