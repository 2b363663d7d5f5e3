/* Loads a dcb_regs.bin image, checks magic, version, length and CRC-32, then prints every field
 * through the accessors of the generated dcb_regs.h as "block[i].field=value" lines, which the
 * vitest side compares with the IR. Exit 0 only when the image is intact. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dcb_regs.h"

static uint32_t crc32_ieee(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
	}
	return ~c;
}

int main(int argc, char **argv)
{
	static uint8_t img[DCB_REGS_LEN + 1];
	if (argc != 2) {
		fprintf(stderr, "usage: %s dcb_regs.bin\n", argv[0]);
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	size_t n = fread(img, 1, sizeof img, f);
	fclose(f);
	if (n != DCB_REGS_LEN) {
		fprintf(stderr, "length %zu, header says %u\n", n, (unsigned)DCB_REGS_LEN);
		return 1;
	}
	if (dcb_hdr_magic_get(img, 0) != DCB_REGS_MAGIC || dcb_hdr_version_get(img, 0) != DCB_REGS_VERSION ||
	    dcb_hdr_length_get(img, 0) != DCB_REGS_LEN || dcb_hdr_num_ports_get(img, 0) != DCB_REGS_NUM_PORTS) {
		fprintf(stderr, "bad header\n");
		return 1;
	}
	uint32_t stored = dcb_hdr_crc32_get(img, 0);
	dcb_hdr_crc32_set(img, 0, 0);
	if (crc32_ieee(img, n) != stored) {
		fprintf(stderr, "CRC mismatch\n");
		return 1;
	}
	dcb_hdr_crc32_set(img, 0, stored);
#define PRINT_FIELD(b, fld) \
	for (unsigned int i = 0; i < DCB_##b##_COUNT; i++) \
		printf(#b "[%u]." #fld "=%lu\n", i, (unsigned long)dcb_##b##_##fld##_get(img, i));
	DCB_REGS_FIELDS(PRINT_FIELD)
	return 0;
}
