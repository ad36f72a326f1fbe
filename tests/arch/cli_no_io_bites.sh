#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/arch/cli_no_io_bites.sh SRCDIR - cli_no_io.sh fails when a file system
# call, an undo log call, the state lock or a transaction (nn_tx*) is planted in a copy of
# nicnuma/cli, and passes the copy when the same words are only in comments
# and strings: the check can fail, and does not fail on help text.
set -uo pipefail

src=${1:?usage: cli_no_io_bites.sh SRCDIR}
# shellcheck source-path=SCRIPTDIR source=bites_lib.sh
. "$(dirname "$0")/bites_lib.sh"
bites_init "$src" nicnuma/cli
bites_check bash "$src/tests/arch/cli_no_io.sh" "$bites_tmp"

bites_plant open nicnuma/cli/cmd_status.c 'static int x1(void) { return open("f", 0); }'
bites_plant openat nicnuma/cli/cmd_status.c 'static int x2(int d) { return openat(d, "f", 0); }'
bites_plant rename nicnuma/cli/cmd_status.c 'static int x3(void) { return rename("a", "b"); }'
bites_plant unlinkat nicnuma/cli/cmd_status.c 'static int x4(int d) { return unlinkat(d, "a", 0); }'
bites_plant mkdir nicnuma/cli/cmd_status.c 'static int x5(void) { return mkdir("d", 0700); }'
bites_plant fopen nicnuma/cli/cmd_status.c 'static void *x6(void) { return fopen("f", "r"); }'
bites_plant stat nicnuma/cli/cmd_status.c 'static int x7(struct stat *s) { return stat("f", s); }'
bites_plant lstat nicnuma/cli/cmd_status.c 'static int x8(struct stat *s) { return lstat ("f", s); }'
bites_plant fstatat nicnuma/cli/cmd_status.c 'static int x9(struct stat *s) { return fstatat(0, "f", s, 0); }'
bites_plant undo nicnuma/cli/cmd_status.c 'static void x10(struct nn_undo *u) { nn_undo_free(u); }'
bites_plant lock nicnuma/cli/cmd_status.c 'static int x11(struct nn_ctx *c) { return nn_state_lock(c); }'
bites_plant unlock nicnuma/cli/cmd_status.c 'static void x12(void) { nn_state_unlock(-1); }'
bites_plant tx_begin nicnuma/cli/cmd_status.c 'static int x14(struct nn_ctx *c, void *t) { return nn_tx_begin(c, t, "x"); }'
bites_plant tx_type nicnuma/cli/cmd_status.c 'static void x15(void) { struct nn_tx t; (void)t; }'
bites_plant tx_init nicnuma/cli/cmd_status.c 'static int x16 = NN_TX_INIT;'
bites_plant tx_end nicnuma/cli/cmd_status.c 'static void x17(void *t) { nn_tx_end (t); }'
bites_plant clean nicnuma/cli/cmd_status.c '/* nn_tx_begin(), struct nn_tx and NN_TX_INIT in a comment */'
bites_plant clean nicnuma/cli/cmd_status.c 'static const char *x18 = "nn_tx_lock( NN_TX_INIT";'
bites_plant clean nicnuma/cli/cmd_status.c '/* open(2), rename(2), stat(), nn_undo_load() and nn_state_lock() in a comment */'
bites_plant clean nicnuma/cli/cmd_status.c 'static const char *x13 = "open( rename( mkdir( nn_state_lock(";'
bites_plant clean nicnuma/cli/cmd_status.c '// unlink(tmp) in a line comment'
bites_end "ok: cli_no_io.sh catches what is planted and passes comments and strings"
