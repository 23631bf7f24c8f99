// SPDX-License-Identifier: GPL-2.0
/* ptcompare --json --phys ADDR[-END]: one object, the schema in docs/json.md. */
#include "module/ptwalk_names.h"
#include "report/json.h"
#include "report/page_attrs.h"
#include "report/phys_print.h"

static void json_mapping(struct json_writer *j, const struct phys_view *v,
			 const struct phys_mapping *m)
{
	const struct phys_vma *vma = &v->vmas[m->vma];
	struct page_detail d = phys_page_detail(m);
	char name[256];

	jw_begin_line_object(j);
	jw_kv_i64(j, "pid", m->pid);
	jw_kv_str(j, "comm", v->procs[m->proc].comm);
	jw_kv_hex(j, "start", m->addr);
	jw_kv_hex(j, "pfn", m->pfn);
	jw_kv_u64(j, "pages", m->pages);
	jw_key(j, "level");
	jw_str_or_null(j, ptwalk_level_name(m->level));
	page_attrs_json(j, &d);
	jw_key(j, "flags");
	jw_flag_names(j, m->flags, ptwalk_flag_name);
	jw_key(j, "vma");
	jw_begin_object(j);
	jw_kv_start_end(j, vma->start, vma->end);
	jw_kv_str(j, "perms", vma->perms);
	jw_kv_str(j, "name", vma->name);
	jw_key(j, "vm_flags");
	jw_flag_names(j, m->vm_flags, ptwalk_vm_flag_name);
	jw_end_object(j);
	jw_key(j, "iomem");
	jw_str_or_null(j, *phys_iomem_name(v, m->pfn, name, sizeof(name)) ?
		       name : NULL);
	jw_end_object(j);
}

static void json_unmapped(void *arg, uint64_t pfn, uint64_t pages)
{
	struct json_writer *j = arg;

	jw_begin_line_object(j);
	jw_kv_hex(j, "pfn", pfn);
	jw_kv_u64(j, "pages", pages);
	jw_end_object(j);
}

static void json_conflict(struct json_writer *j, const struct phys_view *v,
			  const struct memtype_conflict *c)
{
	const struct phys_set *s = v->set;

	jw_begin_line_object(j);
	jw_kv_hex(j, "pfn", c->pfn);
	jw_kv_u64(j, "pages", c->pages);
	jw_key(j, "memtypes");
	jw_flag_names(j, c->memtypes, ptwalk_memtype_name);
	jw_key(j, "mappings");
	jw_begin_array(j);
	for (size_t i = 0; i < s->n; i++) {
		const struct phys_mapping *m = &s->m[i];

		if (!phys_overlaps(m, c->pfn, c->pages) ||
		    m->memtype == PTWALK_MEMTYPE_NONE)
			continue;
		jw_begin_object(j);
		jw_kv_i64(j, "pid", m->pid);
		jw_kv_hex(j, "address",
			  m->addr + ((c->pfn > m->pfn ? c->pfn - m->pfn : 0)
				     << s->page_shift));
		jw_key(j, "memtype");
		jw_str_or_null(j, ptwalk_memtype_name(m->memtype));
		jw_end_object(j);
	}
	jw_end_array(j);
	jw_end_object(j);
}

void phys_print_conflicts_json(struct json_writer *j,
			       const struct phys_view *v)
{
	for (size_t i = 0; i < v->nr_conflicts; i++)
		json_conflict(j, v, &v->conflicts[i]);
}

int phys_print_json(FILE *f, const struct phys_view *v)
{
	const struct phys_set *s = v->set;
	struct json_writer j;
	uint64_t unmapped;
	char name[256];
	int err;

	jw_init(&j, f);
	jw_begin_object(&j);
	jw_kv_str(&j, "kernel", v->kernel);
	jw_line_key(&j, "phys");
	jw_begin_object(&j);
	jw_kv_start_end(&j, v->start, v->end);
	jw_kv_u64(&j, "page_size", 1ULL << s->page_shift);
	jw_kv_u64(&j, "pages", s->pfn_end - s->pfn_start);
	jw_key(&j, "iomem");
	jw_str_or_null(&j, *phys_iomem_name(v, s->pfn_start, name,
					    sizeof(name)) ? name : NULL);
	jw_end_object(&j);
	jw_line_key(&j, "mappings");
	jw_begin_array(&j);
	for (size_t i = 0; i < s->n; i++)
		json_mapping(&j, v, &s->m[i]);
	jw_end_array(&j);
	jw_kv_u64(&j, "mappings_not_listed", s->dropped);
	jw_kv_u64(&j, "pages_not_listed", s->dropped_pages);
	jw_line_key(&j, "unmapped");
	jw_begin_array(&j);
	err = phys_unmapped(s, json_unmapped, &j, &unmapped);
	jw_end_array(&j);
	jw_line_key(&j, "conflicts");
	jw_begin_array(&j);
	phys_print_conflicts_json(&j, v);
	jw_end_array(&j);
	jw_line_key(&j, "processes");
	jw_begin_object(&j);
	jw_kv_u64(&j, "scanned", v->scanned);
	jw_kv_u64(&j, "without_memory", v->no_mm);
	jw_kv_u64(&j, "exited", v->exited);
	jw_end_object(&j);
	jw_end_object(&j);
	return err ? err : jw_finish(&j);
}
