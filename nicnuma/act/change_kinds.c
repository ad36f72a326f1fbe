// SPDX-License-Identifier: GPL-2.0-or-later
/* change_kinds.c - the kinds a log read from disk may hold (read-only table) */
#include "nicnuma/act/change_kinds.h"

const struct nn_change_ops *const nn_change_kinds[] = {
	&nn_file_change_ops,
	&nn_channels_change_ops,
	&nn_coalesce_change_ops,
	&nn_rings_change_ops,
	&nn_rss_change_ops,
	&nn_irqb_change_ops,
	&nn_napi_change_ops,
	&nn_rps_change_ops,
	&nn_busy_poll_change_ops,
	&nn_napi_conf_change_ops,
	&nn_napi_dev_change_ops,
	&nn_mount_change_ops,
	&nn_boot_change_ops,
	&nn_port_change_ops,
	NULL,
};
