/* Loads a qos_sched profile file (the format of DPDK examples/qos_sched/profile.cfg, read as
 * examples/qos_sched/cfg_file.c reads it) into the real rte_sched library, drives a load through
 * one subport and pipe, and prints what each queue sent, as one JSON line.
 *
 *   dpdk_sched_harness EAL-ARGS -- JOB...
 *   JOB  = --cfg FILE --rate BYTES_PER_S --mtu N (--dump | --packets N --warmup N FLOW...)
 *   (jobs run one after the other on one EAL, each on its own rte_sched port, one output each)
 *   FLOW = tc:queue:pkt_len:load (pkt_len = frame without FCS), load = "sat" (always backlogged) or an offered share in
 *          parts per million of the wire bytes dequeued (a byte clock: after each dequeued frame of
 *          W wire bytes the flow earns ppm x W credits and sends a frame per frame_wire x 10^6).
 *
 * The load is the one test/codegen/dpdk-load.ts runs through dcbkit's ETS model, so the shares
 * compare directly. Wire bytes = pkt_len + the profile's frame overhead. Counting starts after
 * --warmup dequeued frames and stops after --packets more.
 * --dump prints the parameters read from the file as key=value lines (test/c/dpdk_sched_dump.c
 * prints the same keys from the generated dcb_sched.c) and exits.
 * Exit 0 on success, 1 when rte_sched refuses the configuration or the run fails, 2 on bad use. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cfgfile.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_sched.h>

#define MAX_FLOWS 16
#define BURST 32
#define PPM 1000000ull

struct flow {
	uint32_t tc, queue, frame;
	int saturated;
	uint64_t ppm, credit;
	uint64_t backlog; /* frames enqueued and not yet dequeued (accepted ones) */
	uint64_t packets, wire_bytes;
};

static struct rte_sched_port_params port_params;
static struct rte_sched_subport_params subport_params;
static struct rte_sched_subport_profile_params subport_profile;
static struct rte_sched_pipe_params pipe_profile;
static uint32_t pipe_profile_of_pipe0 = UINT32_MAX;

static void die(int code, const char *fmt, const char *arg)
{
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(code);
}

static uint64_t need_u64(struct rte_cfgfile *cfg, const char *sec, const char *key)
{
	const char *v = rte_cfgfile_get_entry(cfg, sec, key);
	char *end;
	if (v == NULL)
		die(1, "profile: missing entry \"%s\"", key);
	errno = 0;
	uint64_t x = strtoull(v, &end, 0);
	if (errno || *end != '\0')
		die(1, "profile: entry \"%s\" is not a number", key);
	return x;
}

/* Reads numbers separated by spaces into out[0..n-1]; all n must be present. */
static void need_list(struct rte_cfgfile *cfg, const char *sec, const char *key, uint64_t *out, int n)
{
	const char *v = rte_cfgfile_get_entry(cfg, sec, key);
	char *end;
	if (v == NULL)
		die(1, "profile: missing entry \"%s\"", key);
	for (int i = 0; i < n; i++) {
		errno = 0;
		out[i] = strtoull(v, &end, 10);
		if (errno || end == v)
			die(1, "profile: entry \"%s\" has too few numbers", key);
		v = end;
	}
	while (*v == ' ' || *v == '\t')
		v++;
	if (*v != '\0')
		die(1, "profile: entry \"%s\" has too many numbers", key);
}

/* tb rate, tb size, tc period and the 13 tc rates: the same keys in subport and pipe profiles. */
static void read_bucket(struct rte_cfgfile *cfg, const char *sec, uint64_t *tb_rate, uint64_t *tb_size, uint64_t *tc_period, uint64_t *tc_rate)
{
	char key[32];
	*tb_rate = need_u64(cfg, sec, "tb rate");
	*tb_size = need_u64(cfg, sec, "tb size");
	*tc_period = need_u64(cfg, sec, "tc period");
	for (int i = 0; i < RTE_SCHED_TRAFFIC_CLASSES_PER_PIPE; i++) {
		snprintf(key, sizeof(key), "tc %d rate", i);
		tc_rate[i] = need_u64(cfg, sec, key);
	}
}

static void load_profile(const char *file)
{
	struct rte_cfgfile *cfg = rte_cfgfile_load(file, 0);
	uint64_t list[RTE_SCHED_TRAFFIC_CLASSES_PER_PIPE];
	if (cfg == NULL)
		die(1, "cannot load profile %s", file);
	if (rte_cfgfile_num_sections(cfg, "subport profile", sizeof("subport profile") - 1) != 1 ||
	    rte_cfgfile_num_sections(cfg, "pipe profile", sizeof("pipe profile") - 1) != 1)
		die(1, "profile %s: expected one subport profile and one pipe profile", file);

	port_params.frame_overhead = (uint32_t)need_u64(cfg, "port", "frame overhead");
	port_params.n_subports_per_port = (uint32_t)need_u64(cfg, "port", "number of subports per port");

	subport_params.n_pipes_per_subport_enabled = (uint32_t)need_u64(cfg, "subport 0", "number of pipes per subport");
	need_list(cfg, "subport 0", "queue sizes", list, RTE_SCHED_TRAFFIC_CLASSES_PER_PIPE);
	for (int i = 0; i < RTE_SCHED_TRAFFIC_CLASSES_PER_PIPE; i++)
		subport_params.qsize[i] = (uint16_t)list[i];
	/* "pipe A-B = P" entries, as qos_sched reads them; the harness drives pipe 0 only. */
	int n = rte_cfgfile_section_num_entries(cfg, "subport 0");
	struct rte_cfgfile_entry entries[64];
	if (n > 64)
		die(1, "profile %s: too many subport 0 entries", file);
	rte_cfgfile_section_entries(cfg, "subport 0", entries, n);
	for (int i = 0; i < n; i++) {
		unsigned int a, b;
		if (strncmp(entries[i].name, "pipe ", 5) != 0)
			continue;
		if (sscanf(entries[i].name + 5, "%u-%u", &a, &b) == 2 ? a == 0 : sscanf(entries[i].name + 5, "%u", &a) == 1 && a == 0)
			pipe_profile_of_pipe0 = (uint32_t)strtoul(entries[i].value, NULL, 10);
	}
	if (pipe_profile_of_pipe0 != 0)
		die(1, "profile %s: pipe 0 is not given pipe profile 0", file);

	read_bucket(cfg, "subport profile 0", &subport_profile.tb_rate, &subport_profile.tb_size, &subport_profile.tc_period, subport_profile.tc_rate);
	read_bucket(cfg, "pipe profile 0", &pipe_profile.tb_rate, &pipe_profile.tb_size, &pipe_profile.tc_period, pipe_profile.tc_rate);
	pipe_profile.tc_ov_weight = (uint8_t)need_u64(cfg, "pipe profile 0", "tc 12 oversubscription weight");
	need_list(cfg, "pipe profile 0", "tc 12 wrr weights", list, RTE_SCHED_BE_QUEUES_PER_PIPE);
	for (int i = 0; i < RTE_SCHED_BE_QUEUES_PER_PIPE; i++) {
		if (list[i] > 255)
			die(1, "profile: a wrr weight is above 255 (%s)", "uint8_t");
		pipe_profile.wrr_weights[i] = (uint8_t)list[i];
	}
	rte_cfgfile_close(cfg);
}

/* The parameter dump shared with dpdk_sched_dump.c (same keys, same order). */
#include "dpdk_sched_print.h"

static void parse_flow(const char *s, struct flow *f)
{
	char load[16];
	if (sscanf(s, "%u:%u:%u:%15s", &f->tc, &f->queue, &f->frame, load) != 4)
		die(2, "bad flow \"%s\" (tc:queue:frame:load)", s);
	if (strcmp(load, "sat") == 0)
		f->saturated = 1;
	else {
		char *end;
		f->ppm = strtoull(load, &end, 10);
		if (*end != '\0' || f->ppm == 0 || f->ppm >= PPM)
			die(2, "bad flow load \"%s\" (sat or 1..999999 ppm)", s);
	}
	if (f->tc >= RTE_SCHED_TRAFFIC_CLASSES_PER_PIPE || (f->tc < RTE_SCHED_TRAFFIC_CLASS_BE ? f->queue != 0 : f->queue >= RTE_SCHED_BE_QUEUES_PER_PIPE))
		die(2, "bad flow \"%s\": no such traffic class queue", s);
}

/* One job: the arguments from one --cfg up to the next. Prints one line (JSON, or the dump). */
static void run_job(int argc, char **argv, int job)
{
	const char *cfg_file = NULL;
	uint64_t packets = 0, warmup = 0;
	int dump = 0, nflows = 0;
	static struct flow flows[MAX_FLOWS];
	static char name[32];
	memset(flows, 0, sizeof(flows));
	memset(&port_params, 0, sizeof(port_params));
	memset(&subport_params, 0, sizeof(subport_params));
	memset(&subport_profile, 0, sizeof(subport_profile));
	memset(&pipe_profile, 0, sizeof(pipe_profile));
	pipe_profile_of_pipe0 = UINT32_MAX;
	snprintf(name, sizeof(name), "dcb_harness_%d", job);
	port_params.name = name;
	port_params.socket = (int)rte_socket_id();
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--cfg") && i + 1 < argc)
			cfg_file = argv[++i];
		else if (!strcmp(argv[i], "--rate") && i + 1 < argc)
			port_params.rate = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--mtu") && i + 1 < argc)
			port_params.mtu = (uint32_t)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--packets") && i + 1 < argc)
			packets = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--warmup") && i + 1 < argc)
			warmup = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--dump"))
			dump = 1;
		else if (nflows < MAX_FLOWS && argv[i][0] != '-')
			parse_flow(argv[i], &flows[nflows++]);
		else
			die(2, "bad argument %s", argv[i]);
	}
	if (cfg_file == NULL || port_params.rate == 0 || port_params.mtu == 0)
		die(2, "usage: %s EAL-ARGS -- JOB... with JOB = --cfg FILE --rate BYTES_PER_S --mtu N [--dump | --packets N --warmup N FLOW...]", "dpdk_sched_harness");
	load_profile(cfg_file);

	port_params.subport_profiles = &subport_profile;
	port_params.n_subport_profiles = 1;
	port_params.n_max_subport_profiles = 1;
	port_params.n_pipes_per_subport = subport_params.n_pipes_per_subport_enabled;
	subport_params.pipe_profiles = &pipe_profile;
	subport_params.n_pipe_profiles = 1;
	subport_params.n_max_pipe_profiles = 1;
	if (dump) {
		dcb_print_params(stdout, &port_params, &subport_params);
		return;
	}
	if (packets == 0 || nflows == 0)
		die(2, "%s", "--packets and at least one FLOW are needed");

	struct rte_sched_port *port = rte_sched_port_config(&port_params);
	if (port == NULL)
		die(1, "%s", "rte_sched_port_config refused the port parameters");
	if (rte_sched_subport_config(port, 0, &subport_params, 0) != 0)
		die(1, "%s", "rte_sched_subport_config refused the subport parameters");
	if (rte_sched_pipe_config(port, 0, 0, 0) != 0)
		die(1, "%s", "rte_sched_pipe_config refused pipe profile 0");

	unsigned int pool_size = 1;
	for (int i = 0; i < RTE_SCHED_TRAFFIC_CLASSES_PER_PIPE; i++)
		pool_size += subport_params.qsize[i] * (i == RTE_SCHED_TRAFFIC_CLASS_BE ? RTE_SCHED_BE_QUEUES_PER_PIPE : 1);
	pool_size += 4 * BURST;
	struct rte_mempool *pool = rte_pktmbuf_pool_create(name, pool_size, 0, 0, 0, (int)rte_socket_id());
	if (pool == NULL)
		die(1, "cannot create the mbuf pool: %s", rte_strerror(rte_errno));

	struct rte_mbuf *in[MAX_FLOWS * 1024 + BURST], *out[BURST];
	uint64_t dequeued = 0, total_wire = 0, idle_calls = 0;
	while (dequeued < warmup + packets) {
		/* Top up the saturated flows (never beyond their queue), then the byte-clocked ones. */
		uint32_t n = 0;
		for (int k = 0; k < nflows; k++) {
			struct flow *f = &flows[k];
			uint64_t cap = subport_params.qsize[f->tc];
			uint64_t want = 0;
			if (f->saturated) {
				/* Full queues: a dequeue call takes at most BURST < qsize frames, so a
				 * saturated queue never runs empty (rte_sched would drop it from its WRR
				 * round until the next pipe visit). */
				want = cap - f->backlog;
				if (want > 1024)
					want = 1024;
			} else
				while (f->credit >= (uint64_t)(f->frame + port_params.frame_overhead) * PPM && want < 1024) {
					f->credit -= (uint64_t)(f->frame + port_params.frame_overhead) * PPM;
					want++;
				}
			for (uint64_t j = 0; j < want; j++) {
				struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
				if (m == NULL)
					die(1, "%s", "mbuf pool exhausted");
				m->pkt_len = f->frame;
				m->data_len = 0;
				rte_sched_port_pkt_write(port, m, 0, 0, f->tc, f->queue, RTE_COLOR_GREEN);
				in[n++] = m;
			}
			f->backlog += want;
		}
		if (n)
			rte_sched_port_enqueue(port, in, n); /* drops are freed by rte_sched and read from its stats */
		int got = rte_sched_port_dequeue(port, out, BURST);
		idle_calls = got ? 0 : idle_calls + 1;
		if (idle_calls > 10000000)
			die(1, "%s", "rte_sched sends nothing although queues are backlogged");
		for (int i = 0; i < got; i++) {
			uint32_t sp, pp, tc, q;
			rte_sched_port_pkt_read_tree_path(port, out[i], &sp, &pp, &tc, &q);
			uint64_t wire = out[i]->pkt_len + port_params.frame_overhead;
			for (int k = 0; k < nflows; k++) {
				struct flow *f = &flows[k];
				if (f->tc == tc && f->queue == q) {
					f->backlog--;
					if (dequeued >= warmup) {
						f->packets++;
						f->wire_bytes += wire;
					}
				}
				if (!f->saturated)
					f->credit += f->ppm * wire;
			}
			if (dequeued >= warmup)
				total_wire += wire;
			dequeued++;
		}
		rte_pktmbuf_free_bulk(out, (unsigned int)got);
	}

	printf("{\"total_wire_bytes\":%" PRIu64 ",\"flows\":[", total_wire);
	for (int k = 0; k < nflows; k++) {
		struct flow *f = &flows[k];
		struct rte_sched_queue_stats st;
		uint16_t qlen;
		uint32_t qid = (uint32_t)(f->tc + f->queue); /* queue index within pipe 0 of subport 0 */
		memset(&st, 0, sizeof(st));
		rte_sched_queue_read_stats(port, qid, &st, &qlen);
		printf("%s{\"tc\":%u,\"queue\":%u,\"packets\":%" PRIu64 ",\"wire_bytes\":%" PRIu64 ",\"dropped\":%" PRIu64 "}",
		       k ? "," : "", f->tc, f->queue, f->packets, f->wire_bytes, st.n_pkts_dropped);
	}
	printf("]}\n");
	rte_sched_port_free(port);
	rte_mempool_free(pool);
}

int main(int argc, char **argv)
{
	int used = rte_eal_init(argc, argv);
	if (used < 0)
		die(1, "EAL init failed: %s", rte_strerror(rte_errno));
	argc -= used;
	argv += used;
	/* argv[0] is the program name (or "--" when EAL arguments were given); jobs follow. */
	int job = 0;
	for (int i = 1; i < argc;) {
		int j = i + 1;
		while (j < argc && strcmp(argv[j], "--cfg") != 0)
			j++;
		run_job(j - i, argv + i, job++);
		fflush(stdout);
		i = j;
	}
	if (job == 0)
		die(2, "%s", "no job: give --cfg FILE ... after the EAL arguments and --");
	rte_eal_cleanup();
	return 0;
}
