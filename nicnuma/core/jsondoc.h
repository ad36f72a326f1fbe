/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jsondoc.h - one JSON document out of a buffer: the one rule every reader of
 * nicnuma's own files (undo logs, claim records, the watcher's state, saved
 * plans) and of foreign JSON (an OCI hook's state and config) follows. */
#ifndef NN_CORE_JSONDOC_H
#define NN_CORE_JSONDOC_H

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>

struct nn_json_doc_err {
	enum json_tokener_error error;	/* json_tokener_success with text after it */
	size_t at;			/* the byte the parse stopped at */
	bool nomem;			/* no memory for the tokener */
};

/* Exactly one JSON document in @text[0..@len): json-c's parse (tokener depth
 * @depth, 0 for json-c's default; @flags for json_tokener_set_flags), then
 * nothing but blanks (space, tab, CR, LF - never a NUL byte) up to @len.
 * Returns the document, or NULL with @err (may be NULL) saying why: a parse
 * error, a document that ends early (json_tokener_continue), text after it
 * (json_tokener_success), a length json-c cannot take (json_tokener_error_size)
 * or no memory (@err->nomem). Pure. */
struct json_object *nn_json_doc_parse(const char *text, size_t len, int depth, int flags,
				      struct nn_json_doc_err *err);
/* Words for @err, for "X is not JSON: %s (at byte %zu)". */
const char *nn_json_doc_strerror(const struct nn_json_doc_err *err);

#endif
