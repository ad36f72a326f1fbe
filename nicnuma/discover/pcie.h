/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pcie.h - PCIe link health of a NIC against the speed of its ports
 *
 * A port's traffic crosses every PCIe link between its function and the root
 * port; the narrowest decides what it can carry, and the functions of one
 * device (and everything behind a switch) share their links. The links are
 * read from sysfs through the fs root; the verdict is a pure function of the
 * numbers, so the unit tests can give it any host.
 */
#ifndef NICNUMA_PCIE_H
#define NICNUMA_PCIE_H

#include <stdbool.h>
#include <stddef.h>

struct nn_ctx;
struct nn_host;
struct nn_nic;

/* One physical link: between a root/downstream port (the upper end) and an
 * endpoint or switch upstream port (the lower end). */
struct nn_pcie_link {
	char dev[24];		/* lower end: "0000:03:00.0" */
	char port[24];		/* upper end; "" when the lower end has no parent port */
	char *port_path;	/* sysfs path of the upper end (else of the lower end):
				 * every NIC below it is carried by this link */
	int cur_mts, cur_width;	/* current_link_speed in MT/s, width in lanes; -1 unknown */
	int cap_mts, cap_width;	/* what the link can train to: the lesser max_link_* of its ends */
	long mbps;		/* usable Mb/s at the current speed and width; -1 unknown */
	long ports_mbps;	/* summed port speeds of the NICs it carries (known ones) */
	size_t ports_unknown;	/* carried NICs whose port speed is unknown */
};

enum nn_pcie_state {
	NN_PCIE_LINK_UNKNOWN,	/* no link files (VMs, old kernels): no judgement */
	NN_PCIE_PORT_UNKNOWN,	/* links known and trained, but a port speed is not */
	NN_PCIE_OK,
	NN_PCIE_BAD,		/* down-trained and/or too narrow for its ports */
};

struct nn_pcie_verdict {
	enum nn_pcie_state state;
	int narrowest;		/* link with the least usable bandwidth; -1 none known */
	int down;		/* down-trained link nearest the NIC; -1 none */
	int short_link;		/* narrowest link below the speed of the ports it carries; -1 none */
	char text[192];		/* "ok", "down-trained: x8 of x16", "link carries ..." */
};

/* A PCI NIC function's link picture (struct nn_nic.pcie; NULL: not PCIe). */
struct nn_pcie {
	char *devpath;		/* canonical sysfs path of the function */
	bool is_vf;		/* an SR-IOV VF (physfn): rides on its PF's port, adds none */
	int fn_cur_mts, fn_cur_width;	/* the function's own files; -1 unknown */
	int fn_max_mts, fn_max_width;
	struct nn_pcie_link *links;	/* root port first; the last is the NIC's own */
	size_t nlinks;
	long port_mbps;		/* this port's speed: live ethtool, else sysfs speed; -1 unknown */
	/* Filled by nn_pcie_assess() once every NIC is known: */
	char **shared;		/* names of the ports the NIC's own link carries (itself too) */
	size_t nshared;
	struct nn_pcie_verdict v;
};

/* Pure parsers of the kernel's spellings. Speed: "8.0 GT/s PCIe" (5.7+),
 * "8 GT/s" (older), "2.5 GT/s"; "Unknown"/"Unknown speed" give -1. Width:
 * decimal lanes; 0 (link down) and 255 (unknown) give -1. -EINVAL otherwise. */
int nn_pcie_parse_speed(const char *text, int *mts);
int nn_pcie_parse_width(const char *text, int *width);
/* Usable Mb/s of @width lanes at @mts: 8b/10b below 8 GT/s, 128b/130b from
 * 8 GT/s, 242/256 from 64 GT/s (FLIT mode: of 256 bytes, 8 are CRC and 6 FEC;
 * the rest carries TLPs and DLLPs). Rounded down; -1 when unknown. */
long nn_pcie_usable_mbps(int mts, int width);
/* "8", "2.5": GT/s as the kernel names them, less the ".0". */
void nn_pcie_fmt_gts(char *buf, size_t size, int mts);
/* Gb/s rounded down to a tenth ("63", "7.8"): never more than a link gives. */
void nn_pcie_fmt_gbps(char *buf, size_t size, long mbps);
/* Judges @links (root first) whose ports_* are filled. Pure. */
void nn_pcie_judge(const struct nn_pcie_link *links, size_t n, struct nn_pcie_verdict *v);

/* Reads the links from @devpath (the function's canonical sysfs path) up to
 * the root port. Missing files are unknown, malformed ones warnings. */
int nn_pcie_read(struct nn_ctx *ctx, const char *devpath, struct nn_pcie **out);
/* Sums each link's carried port speeds over @nics, fills shared ports and
 * judges every NIC. No I/O. */
int nn_pcie_assess(struct nn_nic *nics, size_t n);
void nn_pcie_free(struct nn_pcie *p);
/* plan and check: one warning per NIC whose verdict is bad. */
void nn_pcie_warn(struct nn_ctx *ctx, const struct nn_host *host);

#endif
