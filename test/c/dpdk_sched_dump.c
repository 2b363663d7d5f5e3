/* Links the generated dcb_sched.c: prints the parameters dcb_sched_fill() gives port 0 (the format
 * of dpdk_sched_print.h, which the harness prints for qos_sched.cfg), then starts the EAL and lets
 * dcb_sched_create() configure every port in the real rte_sched; exit 1 when it refuses one.
 *
 *   dpdk_sched_dump EAL-ARGS */
#include <stdio.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include "dcb_sched.h"
#include "dpdk_sched_print.h"

int main(int argc, char **argv)
{
	struct dcb_sched_params p;
	if (dcb_sched_fill(0, "dcb_dump", 0, &p) != 0 || dcb_sched_fill(DCB_SCHED_N_PORTS, "x", 0, &p) == 0) {
		fprintf(stderr, "dcb_sched_fill: port index check wrong\n");
		return 1;
	}
	dcb_sched_fill(0, "dcb_dump", 0, &p);
	dcb_print_params(stdout, &p.port, &p.subport);
	if (rte_eal_init(argc, argv) < 0) {
		fprintf(stderr, "EAL init failed: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	for (unsigned int i = 0; i < DCB_SCHED_N_PORTS; i++) {
		char name[32];
		snprintf(name, sizeof(name), "dcb_dump_%u", i);
		struct rte_sched_port *port = dcb_sched_create(i, name, (int)rte_socket_id());
		if (port == NULL) {
			fprintf(stderr, "rte_sched refused port %u (%s)\n", i, dcb_sched_port_name[i]);
			return 1;
		}
		printf("created[%u]=%s\n", i, dcb_sched_port_name[i]);
		rte_sched_port_free(port);
	}
	rte_eal_cleanup();
	return 0;
}
