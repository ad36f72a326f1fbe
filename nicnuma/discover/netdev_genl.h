/* SPDX-License-Identifier: GPL-2.0-or-later */
/* netdev_genl.h - queue <-> NAPI <-> IRQ from the kernel's netdev generic
 * netlink family (queue-get, napi-get)
 *
 * A pure parser over the kernel's reply bytes (nn_genl_parse: unit-tested on
 * built messages, fuzzed, and the reader of a capture's saved answers) and a
 * thin live-only edge that asks the kernel (nn_genl_read, netdev_genl_io.c).
 *
 * The constants are the kernel's Documentation/netlink/specs/netdev.yaml,
 * defined here with the kernel version that added each: Debian 12's
 * linux-libc-dev (6.1) has none of the queue/NAPI ones. Attributes a newer
 * kernel adds are skipped; one an older kernel lacks is "unknown" (-1).
 */
#ifndef NICNUMA_NETDEV_GENL_H
#define NICNUMA_NETDEV_GENL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nn_ctx;

#define NN_NETDEV_FAMILY_NAME "netdev"		/* 6.3 (dev-get, XDP features) */

enum {
	NN_NETDEV_CMD_QUEUE_GET = 10,		/* 6.8 */
	NN_NETDEV_CMD_NAPI_GET = 11,		/* 6.8 */
	NN_NETDEV_CMD_NAPI_SET = 14,		/* 6.13 (per-NAPI config) */
};

/* attribute-set "queue" */
enum {
	NN_NETDEV_A_QUEUE_ID = 1,		/* u32, 6.8 */
	NN_NETDEV_A_QUEUE_IFINDEX = 2,		/* u32, 6.8 */
	NN_NETDEV_A_QUEUE_TYPE = 3,		/* u32 enum: 0 rx, 1 tx, 6.8 */
	NN_NETDEV_A_QUEUE_NAPI_ID = 4,		/* u32, 6.8; absent: no NAPI */
	NN_NETDEV_A_QUEUE_DMABUF = 5,		/* u32 binding id, 6.12 (devmem TCP) */
	NN_NETDEV_A_QUEUE_IO_URING = 6,		/* nest, 6.15 (io_uring zero-copy rx) */
	NN_NETDEV_A_QUEUE_XSK = 7,		/* nest, 6.15 (AF_XDP socket bound) */
};

/* attribute-set "napi" */
enum {
	NN_NETDEV_A_NAPI_IFINDEX = 1,		/* u32, 6.8 */
	NN_NETDEV_A_NAPI_ID = 2,		/* u32, 6.8 */
	NN_NETDEV_A_NAPI_IRQ = 3,		/* u32, 6.8; absent: the driver linked no IRQ */
	NN_NETDEV_A_NAPI_PID = 4,		/* u32, 6.8; absent: not threaded */
	NN_NETDEV_A_NAPI_DEFER_HARD_IRQS = 5,	/* u32, 6.13 (per-NAPI config) */
	NN_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT = 6,	/* uint (4 or 8 bytes), ns, 6.13 */
	NN_NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT = 7, /* uint, ns, 6.13 */
	NN_NETDEV_A_NAPI_THREADED = 8,		/* uint enum: 0 off, 1 on (6.17), 2 busy-poll (6.18) */
};

enum nn_genl_qtype {
	NN_GENL_QUEUE_RX = 0,
	NN_GENL_QUEUE_TX = 1,
};

struct nn_genl_queue {
	int ifindex;
	int id;				/* index within its type */
	int type;			/* NN_GENL_QUEUE_RX / _TX; others kept as sent */
	long long napi_id;		/* -1: no NAPI */
	long long dmabuf;		/* devmem binding id; -1: none */
	bool io_uring;			/* an io_uring zero-copy area is bound */
	bool xsk;			/* an AF_XDP socket is bound */
};

struct nn_genl_napi {
	int ifindex;
	long long id;
	int irq;			/* -1: no IRQ linked (virtio_net, veth ...) */
	int pid;			/* kthread napi/IF-ID; -1: none */
	int threaded;			/* -1 unknown (kernel before 6.17), else the kernel's value */
	long long defer_hard_irqs;	/* -1: unknown (before 6.13) */
	long long gro_flush_timeout;	/* ns; -1 unknown */
	long long irq_suspend_timeout;	/* ns; -1 unknown */
};

struct nn_genl {
	struct nn_genl_queue *queues;	/* in the kernel's order */
	size_t nqueues, qcap;
	struct nn_genl_napi *napis;
	size_t nnapis, ncap;
	size_t nbad;			/* replies skipped: required attribute missing */
	/* What napi-set takes, from the family (live only): napi_set_known
	 * false when it could not be asked (a capture, an nlctrl without
	 * per-op policies); else bit N of napi_set_attrs set when napi-set's
	 * policy has attribute N (0: no napi-set at all). */
	bool napi_set_known;
	uint32_t napi_set_attrs;
};

/* Parses @len bytes of netlink messages as a dump's replies arrive (one
 * recvfrom after another, or a capture's saved file), appending each
 * queue-get and napi-get reply to @g. @family: the netdev family id, or 0 to
 * take any generic netlink type (a capture from another boot). Stops at
 * NLMSG_DONE. Returns 0, -EBADMSG for bytes that are not whole netlink
 * messages, the kernel's negative errno from an NLMSG_ERROR or a failed
 * dump's NLMSG_DONE, or -ENOMEM. Whatever was parsed before stays in @g. */
int nn_genl_parse(const void *buf, size_t len, uint16_t family, struct nn_genl *g);
void nn_genl_free(struct nn_genl *g);
const struct nn_genl_napi *nn_genl_napi_find(const struct nn_genl *g, long long id);

/* The raw replies as the kernel sent them, kept for a capture. */
struct nn_genl_raw {
	void *queues, *napis;
	size_t queues_len, napis_len;
};
void nn_genl_raw_free(struct nn_genl_raw *raw);

/* Live only (refuses under a fake root): resolves the family by name over
 * nlctrl and dumps queue-get and napi-get for the current network namespace
 * into @g (and the bytes into @raw when not NULL). -EOPNOTSUPP: the kernel has
 * no netdev family (before 6.3) or no queue/NAPI commands (before 6.8); other
 * negative errnos as the socket or the kernel said. Does not warn: the caller
 * decides what a missing family means. @flags NN_GENL_NAPI_SET_CAPS: also
 * which attributes napi-set takes (napi_set_known/napi_set_attrs, a policy
 * dump: the planner's question alone); without it they stay unknown. */
#define NN_GENL_NAPI_SET_CAPS 0x1u
int nn_genl_read(struct nn_ctx *ctx, struct nn_genl *g, struct nn_genl_raw *raw, unsigned int flags);

/* The live edge every netdev genl request goes through (netdev_genl_io.c):
 * nn_genl_read above and obs_qstats.c's qstats-get. Callers check
 * nn_require_live first. */
struct mnl_socket;
struct nn_genl_sock {
	struct mnl_socket *nl;
	unsigned int portid, seq;
	char *buf;			/* one request or reply */
};
/* A bound NETLINK_GENERIC socket with extended acks: 0 or a negative errno. */
int nn_genl_sock_open(struct nn_genl_sock *s);
void nn_genl_sock_close(struct nn_genl_sock *s);
/* The one resolver of the netdev family over nlctrl: its id into *@family,
 * or -EOPNOTSUPP when the kernel has no such family or it lacks one of the
 * @ncmds commands @cmds (each came in a later kernel than the family). */
int nn_genl_family(struct nn_genl_sock *s, const uint8_t *cmds, size_t ncmds, uint16_t *family);
/* The same resolver for the family called @name (ethtool_nl.c: "ethtool"). */
int nn_genl_family_named(struct nn_genl_sock *s, const char *name, const uint8_t *cmds, size_t ncmds,
			 uint16_t *family);
/* A do request of @cmd to @family (an ACK asked) in s->buf, for the caller
 * to add attributes to; nn_genl_do sends it and collects the answer (the
 * reply messages and the ACK, malloc'd into *@ans when @ans is not NULL):
 * 0 or the kernel's negative errno, its extended ack message into @why. */
struct nlmsghdr;
struct nlmsghdr *nn_genl_request(struct nn_genl_sock *s, uint16_t family, uint8_t cmd);
int nn_genl_do(struct nn_genl_sock *s, struct nlmsghdr *req, void **ans, size_t *anslen,
	       char *why, size_t whylen);
/* A dump of @cmd over the namespace's devices, with the u32 attribute
 * @attr = @val when @attr > 0, asked again (up to 3 times) while the kernel
 * flags it interrupted: every reply message up to NLMSG_DONE or an
 * NLMSG_ERROR, as sent, into *@out (malloc'd, *@outlen bytes; NULL on error). */
int nn_genl_dump(struct nn_genl_sock *s, uint16_t family, uint8_t cmd, int attr, uint32_t val,
		 void **out, size_t *outlen);

/* One NAPI's napi-get (a do request with NN_NETDEV_A_NAPI_ID): -ENOENT when
 * the kernel knows no such NAPI (in this namespace), -EOPNOTSUPP without
 * napi-get; @why gets the kernel's extended ack message when it sent one.
 * Live only. */
int nn_genl_napi_get(struct nn_ctx *ctx, long long napi_id, struct nn_genl_napi *out,
		     char *why, size_t whylen);
/* napi-set of one attribute (NN_NETDEV_A_NAPI_*: DEFER_HARD_IRQS as u32,
 * the timeouts as u64, THREADED as u32) of NAPI @napi_id: -EOPNOTSUPP when
 * the family has no napi-set (its op list, CTRL_CMD_GETFAMILY); the
 * kernel's errno and extended ack message otherwise. Live only. */
int nn_genl_napi_set(struct nn_ctx *ctx, long long napi_id, int attr, unsigned long long value,
		     char *why, size_t whylen);
/* Whether the family lists napi-set: 1 yes, 0 no, negative errno unknown. Live only. */
int nn_genl_napi_set_supported(struct nn_ctx *ctx);

#endif
