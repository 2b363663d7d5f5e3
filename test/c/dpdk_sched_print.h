/* Prints the rte_sched parameters of one port, its subport 0 and their profiles as key=value lines:
 * the one format in which the harness (read from qos_sched.cfg) and dpdk_sched_dump.c (filled by
 * the generated dcb_sched.c) report what they would give rte_sched, so the test can compare them. */
#ifndef DPDK_SCHED_PRINT_H
#define DPDK_SCHED_PRINT_H
#include <inttypes.h>
#include <stdio.h>
#include <rte_sched.h>

static inline void dcb_print_params(FILE *out, const struct rte_sched_port_params *port,
				    const struct rte_sched_subport_params *sub)
{
	const struct rte_sched_subport_profile_params *sp = port->subport_profiles;
	const struct rte_sched_pipe_params *pp = sub->pipe_profiles;
	fprintf(out, "port.rate=%" PRIu64 "\nport.mtu=%u\nport.frame_overhead=%u\n", port->rate, port->mtu, port->frame_overhead);
	fprintf(out, "port.n_subports_per_port=%u\nport.n_pipes_per_subport=%u\nport.n_subport_profiles=%u\n",
		port->n_subports_per_port, port->n_pipes_per_subport, port->n_subport_profiles);
	fprintf(out, "subport.n_pipes_per_subport_enabled=%u\nsubport.n_pipe_profiles=%u\n", sub->n_pipes_per_subport_enabled, sub->n_pipe_profiles);
	for (int i = 0; i < RTE_SCHED_TRAFFIC_CLASSES_PER_PIPE; i++)
		fprintf(out, "subport.qsize[%d]=%u\n", i, sub->qsize[i]);
	fprintf(out, "subport_profile.tb_rate=%" PRIu64 "\nsubport_profile.tb_size=%" PRIu64 "\nsubport_profile.tc_period=%" PRIu64 "\n",
		sp->tb_rate, sp->tb_size, sp->tc_period);
	for (int i = 0; i < RTE_SCHED_TRAFFIC_CLASSES_PER_PIPE; i++)
		fprintf(out, "subport_profile.tc_rate[%d]=%" PRIu64 "\n", i, sp->tc_rate[i]);
	fprintf(out, "pipe_profile.tb_rate=%" PRIu64 "\npipe_profile.tb_size=%" PRIu64 "\npipe_profile.tc_period=%" PRIu64 "\n",
		pp->tb_rate, pp->tb_size, pp->tc_period);
	for (int i = 0; i < RTE_SCHED_TRAFFIC_CLASSES_PER_PIPE; i++)
		fprintf(out, "pipe_profile.tc_rate[%d]=%" PRIu64 "\n", i, pp->tc_rate[i]);
	fprintf(out, "pipe_profile.tc_ov_weight=%u\n", pp->tc_ov_weight);
	for (int i = 0; i < RTE_SCHED_BE_QUEUES_PER_PIPE; i++)
		fprintf(out, "pipe_profile.wrr_weights[%d]=%u\n", i, pp->wrr_weights[i]);
}
#endif
