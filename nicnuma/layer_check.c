// SPDX-License-Identifier: GPL-2.0-or-later
/* layer_check.c - main() of the layer link checks (nicnuma/meson.build) */
int main(void);
int main(void)
{
	return 0;
}
