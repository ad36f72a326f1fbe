// SPDX-License-Identifier: GPL-2.0-or-later
/* jsondoc.c - one JSON document out of a buffer (jsondoc.h). */
#include <limits.h>
#include <string.h>

#include "nicnuma/core/jsondoc.h"

static int blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

struct json_object *nn_json_doc_parse(const char *text, size_t len, int depth, int flags,
				      struct nn_json_doc_err *err)
{
	struct nn_json_doc_err e = { json_tokener_success, 0, false };
	struct json_tokener *tok;
	struct json_object *doc = NULL;
	size_t end;

	if (len > INT_MAX) {
		e.error = json_tokener_error_size;
		goto out;
	}
	tok = depth > 0 ? json_tokener_new_ex(depth) : json_tokener_new();
	if (!tok) {
		e.error = json_tokener_error_size;
		e.nomem = true;
		goto out;
	}
	if (flags)
		json_tokener_set_flags(tok, flags);
	doc = json_tokener_parse_ex(tok, text, (int)len);
	e.error = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	/* json-c stops at a NUL as at the end: a NUL is never a blank here */
	while (end < len && blank(text[end]))
		end++;
	e.at = end;
	if (e.error != json_tokener_success || end != len || !doc) {
		if (e.error == json_tokener_success && !doc)
			e.error = json_tokener_continue;
		json_object_put(doc);
		doc = NULL;
	}
out:
	if (err)
		*err = e;
	return doc;
}

const char *nn_json_doc_strerror(const struct nn_json_doc_err *err)
{
	if (err->nomem)
		return "out of memory";
	switch (err->error) {
	case json_tokener_continue:
		return "it ends too early (truncated?)";
	case json_tokener_success:
		return "text after the document";
	default:
		return json_tokener_error_desc(err->error);
	}
}
