/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tx.h - one transaction for every writing command: state lock, undo log, save, mark, unlock
 *
 * A writer (apply, enable, the watcher, hugepages reserve/release, bench)
 *   nn_tx_lock()    takes STATE_DIR/lock, before it reads the values that
 *                   become the log's before-values (optional: begin takes it);
 *   nn_tx_begin()   starts the log (nothing written until the first record);
 *   nn_tx_record()  / nn_tx_add() + nn_tx_save(): persisted before each write;
 *   nn_tx_abort()   puts back what the log holds and marks it rolled back;
 *   nn_tx_end()     unlocks and frees (the log stays on disk for rollback).
 * A reader of a log (rollback, disable)
 *   nn_tx_lock(), nn_tx_load() (trust rule of nn_undo_load, and with
 *   NN_TX_VALIDATE every change checked against the host), nn_tx_replay()
 *   (restores in reverse order and, when all went back, marks the log rolled
 *   back; NN_TX_PRUNE then prunes the old logs), nn_tx_end().
 * The log is tx->log: the domain writers below act/ (hugepages/, irq/) take
 * a struct nn_undo * and get &tx->log.
 */
#ifndef NICNUMA_STATE_TX_H
#define NICNUMA_STATE_TX_H

#include <stdbool.h>

#include "nicnuma/state/undo.h"

struct nn_tx {
	struct nn_ctx *ctx;
	int lock;		/* the state lock's fd; -1 not held */
	bool begun;		/* the log was begun or loaded */
	bool restored;		/* nn_tx_replay put every change back */
	struct nn_undo log;
};

#define NN_TX_INIT { .ctx = NULL, .lock = -1, .begun = false, .restored = false, .log = { 0 } }

enum {
	NN_TX_VALIDATE = 1 << 0,	/* nn_tx_load: every change against the host too */
	NN_TX_PRUNE = 1 << 1,		/* nn_tx_replay: prune old logs after the mark */
};

/* Takes the state lock (no-op when held). 0 or the negative errno, with the
 * message (holder's pid, untrusted dir) printed. */
int nn_tx_lock(struct nn_ctx *ctx, struct nn_tx *tx);
/* True when the lock is held. */
static inline bool nn_tx_locked(const struct nn_tx *tx)
{
	return tx->lock >= 0;
}
/* Releases the lock early (the log stays open); nn_tx_end() does it too. */
void nn_tx_unlock(struct nn_tx *tx);
/* Takes the lock unless held and starts a log for @command. */
int nn_tx_begin(struct nn_ctx *ctx, struct nn_tx *tx, const char *command);
/* Adds one change and persists the log before the caller writes. */
int nn_tx_record(struct nn_tx *tx, const struct nn_change_ops *ops, const char *path,
		 const char *before, const char *after, const char *detail);
/* Batch form: add in memory, then nn_tx_save() once before the first write. */
int nn_tx_add(struct nn_tx *tx, const struct nn_change_ops *ops, const char *path,
	      const char *before, const char *after, const char *detail);
int nn_tx_save(struct nn_tx *tx);
/* Loads a log (@file NULL: the newest not rolled back) under the lock (taken
 * here unless held); @flags: NN_TX_VALIDATE. */
int nn_tx_load(struct nn_ctx *ctx, struct nn_tx *tx, const char *file,
	       const struct nn_change_ops *const *kinds, int flags);
/* Restores every change of the log in reverse order and, when all went back
 * (tx->restored), marks it rolled back (@flags NN_TX_PRUNE: then prunes). Returns the first
 * restore error after trying all, or the mark's error. */
int nn_tx_replay(struct nn_tx *tx, int flags);
/* The writer's failure path: replays what the log holds (nothing when it
 * is empty) and marks it rolled back. */
int nn_tx_abort(struct nn_tx *tx);
/* Unlocks and frees; safe on NN_TX_INIT and after any failure. */
void nn_tx_end(struct nn_tx *tx);

#endif
