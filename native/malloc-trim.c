/*
 * malloc_trim(0) for the daemon (docs/operations.md "Memory allocator"; issue 20).
 *
 * glibc's free() returns memory to the system only from the top of an arena; what a busy phase
 * (verifying and serving pieces, 1,000 torrents going dormant) freed below live allocations stays
 * resident until malloc_trim(), which Node never calls. This Node-API addon exposes one function,
 * `trim()`, that calls it and returns whether any memory was released.
 *
 * Built by scripts/build-native.mjs with the host's C compiler when there is one, into
 * dist/native/; the daemon works without it (src/services/runtime/malloc-trim.ts).
 *
 * No header but libc's: the three Node-API functions used are declared here with the signatures
 * of Node's js_native_api.h (stable ABI since Node-API 1), so the build needs no Node headers,
 * no node-gyp and no network. Node resolves them from its own executable when it loads the addon.
 */
#include <malloc.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct napi_env__ *napi_env;
typedef struct napi_value__ *napi_value;
typedef struct napi_callback_info__ *napi_callback_info;
typedef int napi_status; /* napi_ok == 0 */
typedef napi_value (*napi_callback)(napi_env env, napi_callback_info info);

extern napi_status napi_create_function(napi_env env, const char *utf8name, size_t length, napi_callback cb, void *data, napi_value *result);
extern napi_status napi_set_named_property(napi_env env, napi_value object, const char *utf8name, napi_value value);
extern napi_status napi_get_boolean(napi_env env, bool value, napi_value *result);

static napi_value trim(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value released = NULL;
  napi_get_boolean(env, malloc_trim(0) == 1, &released);
  return released;
}

/* Node-API's module entry point (what NAPI_MODULE_INIT defines); exports = { trim }. */
napi_value napi_register_module_v1(napi_env env, napi_value exports) {
  napi_value fn;
  if (napi_create_function(env, "trim", (size_t)-1, trim, NULL, &fn) != 0) return NULL;
  if (napi_set_named_property(env, exports, "trim", fn) != 0) return NULL;
  return exports;
}

/* The Node-API version the module is written for (what node_api.h defines beside the entry
 * point); 8 is what Node assumes for a module without it. */
int node_api_module_get_api_version_v1(void) { return 8; }
