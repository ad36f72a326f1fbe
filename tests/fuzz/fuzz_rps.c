// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_rps.c - the RPS/RFS and NAPI-setting forms an undo log is checked
 * with (irq/rps.c, irq/napi_conf.c): never crash; an accepted RPS path is one
 * of the three forms (no "." or ".." component, no "//"; an interface may be
 * named "a..b"), an accepted NAPI key formats back to the same text, an
 * accepted device-wide path is a file under /sys/class/net/IF/. The input is
 * "PATH\nVALUE". */
#include "fuzz.h"
#include "irq/napi_conf.h"
#include "irq/rps.h"

/* No component of @p is "." or "..". */
static int no_dot_component(const char *p)
{
	const char *c = p, *e;

	for (; *c; c = *e ? e + 1 : e) {
		e = strchrnul(c, '/');
		if ((e - c == 1 && c[0] == '.') || (e - c == 2 && c[0] == '.' && c[1] == '.'))
			return 0;
	}
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *in = fuzz_str(data, size), *val, nic[16], back[96];
	enum nn_napi_attr a;
	long long id;

	val = strchr(in, '\n');
	if (val)
		*val++ = '\0';
	if (nn_rps_path_valid(in)) {
		FUZZ_ASSERT(no_dot_component(in) && !strstr(in, "//"));
		FUZZ_ASSERT(!strcmp(in, NN_RPS_SOCK_FLOW_PATH) || !strncmp(in, "/sys/class/net/", 15));
		if (val && nn_rps_value_valid(in, val))
			FUZZ_ASSERT(strlen(val) > 0 && !strpbrk(val, " \t\n/;"));
	}
	if (nn_napi_conf_parse_key(in, nic, sizeof(nic), &id, &a) == 0) {
		FUZZ_ASSERT(id >= 1 && id <= 0xffffffffLL && (unsigned int)a < NN_NAPI_NATTR);
		nn_napi_conf_key(back, sizeof(back), nic, id, a);
		FUZZ_ASSERT(!strcmp(back, in));
	}
	if (nn_napi_dev_path_valid(in)) {
		FUZZ_ASSERT(!strncmp(in, "/sys/class/net/", 15) && no_dot_component(in));
		if (val && nn_napi_dev_value_valid(in, val))
			FUZZ_ASSERT(strspn(val, "0123456789") == strlen(val));
	}
	free(in);
	return 0;
}
