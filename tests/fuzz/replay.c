// SPDX-License-Identifier: GPL-2.0-or-later
/* replay.c - runs a fuzz target over files and directories of inputs without
 * libFuzzer, so every build (gcc, ASan+UBSan) replays the seed corpora and any
 * crash reproducer saved next to them. */
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>

#include "fuzz.h"

static int replay_file(const char *path)
{
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, got;
	FILE *f = fopen(path, "rb");

	if (!f) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	do {
		if (len == cap) {
			uint8_t *nb = realloc(buf, cap ? cap * 2 : 4096);

			if (!nb) {
				fclose(f);
				free(buf);
				return -1;
			}
			buf = nb;
			cap = cap ? cap * 2 : 4096;
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
	} while (got);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int i, n = 0, bad = 0;

	for (i = 1; i < argc; i++) {
		struct stat st;
		DIR *d;
		struct dirent *de;

		if (stat(argv[i], &st) < 0) {
			fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
			return 1;
		}
		if (!S_ISDIR(st.st_mode)) {
			bad |= replay_file(argv[i]);
			n++;
			continue;
		}
		d = opendir(argv[i]);
		if (!d) {
			fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
			return 1;
		}
		while ((de = readdir(d))) {
			char path[4096];

			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[i], de->d_name);
			bad |= replay_file(path);
			n++;
		}
		closedir(d);
	}
	printf("replayed %d inputs\n", n);
	return bad || !n ? 1 : 0;
}
