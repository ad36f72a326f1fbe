// SPDX-License-Identifier: GPL-2.0-or-later
/* hostview_save.c - the host picture rendered (plan/hostview.c, pure) and
 * written through the one atomic writer; the observation it draws */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nicnuma/emit/hostview_save.h"
#include "nicnuma/emit/observe.h"
#include "nicnuma/core/fileio.h"
#include "nicnuma/core/strbuf.h"

int nn_hostview_save(const struct nn_hostview *v, const char *title, bool svg, const char *path,
		     size_t *bytes)
{
	struct nn_sb sb = NN_SB_INIT;
	int err;

	*bytes = 0;
	if (svg) {
		nn_sb_puts(&sb, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
		nn_hostview_svg(v, title, &sb);
	} else {
		nn_hostview_html(v, title, &sb);
	}
	err = nn_sb_error(&sb);
	if (!err && !strcmp(path, "-"))
		err = fwrite(nn_sb_str(&sb), 1, sb.len, stdout) != sb.len || fflush(stdout) ? -EIO : 0;
	else if (!err)
		err = nn_write_atomic_path(path, nn_sb_str(&sb), sb.len, 0644);
	if (!err)
		*bytes = sb.len;
	nn_sb_free(&sb);
	return err;
}

int nn_hv_traffic_observe(struct nn_ctx *ctx, const struct nn_host *h, double sec, struct nn_hv_traffic *tr)
{
	struct nn_obs_report r;
	int err = nn_obs_once(ctx, h, NULL, sec, &r);

	if (!err)
		err = nn_hv_traffic_from_obs(&r, tr);
	nn_obs_report_free(&r);
	return err;
}
