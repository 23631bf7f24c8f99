// SPDX-License-Identifier: GPL-2.0
/*
 * The facts about the host asked only to explain a failure to reach
 * ptwalk (cmd/connect.c): is ptwalk.ko loaded, and which lockdown mode is
 * the kernel in.
 *
 * libkmod is opened then and not linked: with it and the libraries it
 * pulls in (libcrypto, libzstd, liblzma), every run of ptcompare paid tens
 * of milliseconds of dynamic loading for an answer it almost never needs.
 */
#include <dlfcn.h>
#include <errno.h>
#include <libkmod.h>
#include <stddef.h>
#include <stdio.h>
#include "io/host_state.h"

struct kmod_api {
	struct kmod_ctx *(*new_ctx)(const char *dirname,
				    const char *const *config_paths);
	int (*module_new_from_name)(struct kmod_ctx *ctx, const char *name,
				    struct kmod_module **mod);
	int (*get_initstate)(const struct kmod_module *mod);
	struct kmod_module *(*module_unref)(struct kmod_module *mod);
	struct kmod_ctx *(*unref)(struct kmod_ctx *ctx);
};

static bool kmod_api_load(void *lib, struct kmod_api *api)
{
	*(void **)&api->new_ctx = dlsym(lib, "kmod_new");
	*(void **)&api->module_new_from_name =
		dlsym(lib, "kmod_module_new_from_name");
	*(void **)&api->get_initstate = dlsym(lib, "kmod_module_get_initstate");
	*(void **)&api->module_unref = dlsym(lib, "kmod_module_unref");
	*(void **)&api->unref = dlsym(lib, "kmod_unref");
	return api->new_ctx && api->module_new_from_name &&
	       api->get_initstate && api->module_unref && api->unref;
}

enum module_state module_state_of(const char *name)
{
	enum module_state state = MODULE_STATE_UNKNOWN;
	void *lib = dlopen(LIBKMOD_SONAME, RTLD_NOW | RTLD_LOCAL);
	struct kmod_module *mod = NULL;
	struct kmod_ctx *ctx;
	struct kmod_api api;

	if (!lib)
		return state;
	if (!kmod_api_load(lib, &api))
		goto out;
	ctx = api.new_ctx(NULL, NULL);
	if (!ctx)
		goto out;
	if (!api.module_new_from_name(ctx, name, &mod)) {
		int s = api.get_initstate(mod);

		if (s == KMOD_MODULE_LIVE || s == KMOD_MODULE_COMING)
			state = MODULE_LOADED;
		else if (s == -ENOENT)
			state = MODULE_NOT_LOADED;
		api.module_unref(mod);
	}
	api.unref(ctx);
out:
	dlclose(lib);
	return state;
}

enum lockdown_mode lockdown_read(const char *path)
{
	char text[128];
	FILE *f = fopen(path, "re");
	enum lockdown_mode mode = LOCKDOWN_UNKNOWN;

	if (!f)
		return mode;
	if (fgets(text, sizeof(text), f))
		mode = lockdown_parse(text);
	fclose(f);
	return mode;
}
