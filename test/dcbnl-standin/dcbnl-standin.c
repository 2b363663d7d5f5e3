/*
 * dcbnl-standin: the DCB netlink interface of a host-managed DCBX NIC, for interfaces that have none.
 *
 * Implements: the rtnetlink DCB protocol of Linux include/uapi/linux/dcbnl.h (RTM_GETDCB/RTM_SETDCB,
 * struct dcbmsg + attributes), answered with the framing of net/dcb/dcbnl.c dcb_doit(): one reply
 * message of the command's type (RTM_GETDCB for get commands, RTM_SETDCB for set commands) carrying
 * the request's sequence number and flags and the socket's port id, then the NLMSG_ERROR
 * acknowledgement when the request asked for one (NLM_F_ACK), as the netlink core sends it; a failed
 * command sends only the NLMSG_ERROR with the negative errno and the request echoed.
 *
 * How: an LD_PRELOAD library. sendto/send/sendmsg on a NETLINK_ROUTE socket whose datagram is a DCB
 * request for an existing interface named in DCBNL_STANDIN_IFACES (comma separated) is answered here and the
 * answer queued on that socket; recv/recvfrom/recvmsg/read on the socket return the queued datagrams
 * first (MSG_PEEK and MSG_TRUNC honoured, the sender address is the kernel's: nl_pid 0). Every other
 * datagram goes to the kernel. poll/select do not see the queue: the readers this serves (lldpad's
 * dcbx netlink code, libnl's nl_recv, libmnl in iproute2 `dcb`) send and then read directly.
 *
 * The device (what a driver would keep in its adapter struct) is a text file per interface,
 * DCBNL_STANDIN_DIR/IFNAME.state, read and rewritten under an flock of DCBNL_STANDIN_DIR/.lock on every
 * request, so lldpad, `dcb` and the test share one device. Lines are `key v1 v2 ...` in decimal:
 *   dcbx MODE, dcbx_cap CAP                   DCB_CAP_DCBX_* bits (GDCBX/SDCBX; SDCBX accepts a mode
 *                                             that has HOST, not LLD_MANAGED, and only supported bits)
 *   ets_willing, ets_cap, ets_cbs, ets_tc_tx_bw x8, ets_tc_rx_bw x8, ets_tc_tsa x8, ets_prio_tc x8,
 *   ets_tc_reco_bw x8, ets_tc_reco_tsa x8, ets_reco_prio_tc x8           struct ieee_ets
 *   pfc_cap, pfc_en, pfc_mbc, pfc_delay, pfc_requests x8, pfc_indications x8   struct ieee_pfc
 *   maxrate x8                                struct ieee_maxrate (bit/s)
 *   buffer_prio2buffer x8, buffer_size x8, buffer_total_size                     struct dcbnl_buffer
 *   app SELECTOR PRIORITY PROTOCOL            one line per entry of the kernel's app list, newest
 *                                             first (net/dcb/dcbnl.c dcb_app_add uses list_add); CEE
 *                                             SAPP entries are kept there too (selector = idtype,
 *                                             priority = user-priority bitmap), as dcb_setapp does
 *   cee_state, cee_pfc_state, cee_pfc x8 (PFC_UP per priority), cee_numtcs_pg, cee_numtcs_pfc,
 *   cee_pgtx_prio_type x8, cee_pgtx_pgid x8, cee_pgtx_bw_pct x8, cee_pgtx_up_map x8, cee_pgtx_bwg x8,
 *   the same five for cee_pgrx, cee_feat_pg, cee_feat_pfc, cee_feat_app (DCB_FEATCFG_* bits)
 *   cee_setall N                              how many SET_ALL commits (ixgbe programs the CEE
 *                                             config at SET_ALL; the values above are the last ones)
 * A missing file is a device with defaults: dcbx 1|4|8 supported, mode HOST|IEEE, ets_cap 8,
 * pfc_cap 8, everything else 0. Each set command also appends `SEQ COMMAND details` to IFNAME.log.
 *
 * Invariants: a datagram is answered here only when every message in it is a DCB request for a
 * managed interface; queued answers are per file descriptor and dropped on close(); the state file
 * is replaced by rename(), never half-written.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#define MAX_FD 1024
#define MAX_APPS 128
#define MAX_DGRAM 16384

/* ---------------------------------------------------------------- the device ---------------------- */

struct pg_cfg {
	uint8_t prio_type[8], pgid[8], bw_pct[8], up_map[8], bwg[8];
};

struct device {
	uint8_t dcbx, dcbx_cap;
	struct ieee_ets ets;
	struct ieee_pfc pfc;
	struct ieee_maxrate maxrate;
	struct dcbnl_buffer buffer;
	int napp;
	struct dcb_app app[MAX_APPS];
	uint8_t cee_state, cee_pfc_state, cee_pfc[8], cee_numtcs_pg, cee_numtcs_pfc;
	struct pg_cfg pgtx, pgrx;
	uint8_t feat_pg, feat_pfc, feat_app;
	unsigned long cee_setall;
};

static void device_defaults(struct device *d)
{
	memset(d, 0, sizeof(*d));
	d->dcbx_cap = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_CEE | DCB_CAP_DCBX_VER_IEEE;
	d->dcbx = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE;
	d->ets.ets_cap = 8;
	d->pfc.pfc_cap = 8;
	d->cee_numtcs_pg = 8;
	d->cee_numtcs_pfc = 8;
}

/* One table drives both the reader and the writer: key, address, element count, element size. */
struct field {
	const char *key;
	size_t offset, count, size;
};
#define F(k, member, n, sz) { k, offsetof(struct device, member), n, sz }
static const struct field fields[] = {
	F("dcbx", dcbx, 1, 1), F("dcbx_cap", dcbx_cap, 1, 1),
	F("ets_willing", ets.willing, 1, 1), F("ets_cap", ets.ets_cap, 1, 1), F("ets_cbs", ets.cbs, 1, 1),
	F("ets_tc_tx_bw", ets.tc_tx_bw, 8, 1), F("ets_tc_rx_bw", ets.tc_rx_bw, 8, 1),
	F("ets_tc_tsa", ets.tc_tsa, 8, 1), F("ets_prio_tc", ets.prio_tc, 8, 1),
	F("ets_tc_reco_bw", ets.tc_reco_bw, 8, 1), F("ets_tc_reco_tsa", ets.tc_reco_tsa, 8, 1),
	F("ets_reco_prio_tc", ets.reco_prio_tc, 8, 1),
	F("pfc_cap", pfc.pfc_cap, 1, 1), F("pfc_en", pfc.pfc_en, 1, 1), F("pfc_mbc", pfc.mbc, 1, 1),
	F("pfc_delay", pfc.delay, 1, 2), F("pfc_requests", pfc.requests, 8, 8),
	F("pfc_indications", pfc.indications, 8, 8),
	F("maxrate", maxrate.tc_maxrate, 8, 8),
	F("buffer_prio2buffer", buffer.prio2buffer, 8, 1), F("buffer_size", buffer.buffer_size, 8, 4),
	F("buffer_total_size", buffer.total_size, 1, 4),
	F("cee_state", cee_state, 1, 1), F("cee_pfc_state", cee_pfc_state, 1, 1), F("cee_pfc", cee_pfc, 8, 1),
	F("cee_numtcs_pg", cee_numtcs_pg, 1, 1), F("cee_numtcs_pfc", cee_numtcs_pfc, 1, 1),
	F("cee_pgtx_prio_type", pgtx.prio_type, 8, 1), F("cee_pgtx_pgid", pgtx.pgid, 8, 1),
	F("cee_pgtx_bw_pct", pgtx.bw_pct, 8, 1), F("cee_pgtx_up_map", pgtx.up_map, 8, 1),
	F("cee_pgtx_bwg", pgtx.bwg, 8, 1),
	F("cee_pgrx_prio_type", pgrx.prio_type, 8, 1), F("cee_pgrx_pgid", pgrx.pgid, 8, 1),
	F("cee_pgrx_bw_pct", pgrx.bw_pct, 8, 1), F("cee_pgrx_up_map", pgrx.up_map, 8, 1),
	F("cee_pgrx_bwg", pgrx.bwg, 8, 1),
	F("cee_feat_pg", feat_pg, 1, 1), F("cee_feat_pfc", feat_pfc, 1, 1), F("cee_feat_app", feat_app, 1, 1),
	F("cee_setall", cee_setall, 1, sizeof(unsigned long)),
};
#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

static unsigned long long get_elem(const void *p, size_t size)
{
	switch (size) {
	case 1: return *(const uint8_t *)p;
	case 2: return *(const uint16_t *)p;
	case 4: return *(const uint32_t *)p;
	default: return *(const uint64_t *)p;
	}
}

static void put_elem(void *p, size_t size, unsigned long long v)
{
	switch (size) {
	case 1: *(uint8_t *)p = (uint8_t)v; break;
	case 2: *(uint16_t *)p = (uint16_t)v; break;
	case 4: *(uint32_t *)p = (uint32_t)v; break;
	default: *(uint64_t *)p = (uint64_t)v; break;
	}
}

static const char *state_dir(void)
{
	const char *d = getenv("DCBNL_STANDIN_DIR");
	return d && *d ? d : ".";
}

static void path_of(char *out, size_t n, const char *ifname, const char *suffix)
{
	snprintf(out, n, "%s/%s%s", state_dir(), ifname, suffix);
}

static void device_load(struct device *d, const char *ifname)
{
	char path[512], line[1024];
	device_defaults(d);
	path_of(path, sizeof(path), ifname, ".state");
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	int apps_seen = 0;
	while (fgets(line, sizeof(line), f)) {
		char *save = NULL, *key = strtok_r(line, " \t\n", &save);
		if (!key || key[0] == '#')
			continue;
		if (!strcmp(key, "app")) {
			if (!apps_seen++)
				d->napp = 0;
			unsigned long long v[3];
			int k;
			for (k = 0; k < 3; k++) {
				char *t = strtok_r(NULL, " \t\n", &save);
				if (!t)
					break;
				v[k] = strtoull(t, NULL, 0);
			}
			if (k == 3 && d->napp < MAX_APPS) {
				d->app[d->napp].selector = (uint8_t)v[0];
				d->app[d->napp].priority = (uint8_t)v[1];
				d->app[d->napp].protocol = (uint16_t)v[2];
				d->napp++;
			}
			continue;
		}
		for (size_t i = 0; i < NFIELDS; i++) {
			if (strcmp(fields[i].key, key))
				continue;
			for (size_t k = 0; k < fields[i].count; k++) {
				char *t = strtok_r(NULL, " \t\n", &save);
				if (!t)
					break;
				put_elem((char *)d + fields[i].offset + k * fields[i].size, fields[i].size, strtoull(t, NULL, 0));
			}
		}
	}
	fclose(f);
}

static void device_store(const struct device *d, const char *ifname)
{
	char path[512], tmp[520];
	path_of(path, sizeof(path), ifname, ".state");
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
	FILE *f = fopen(tmp, "w");
	if (!f)
		return;
	for (size_t i = 0; i < NFIELDS; i++) {
		fputs(fields[i].key, f);
		for (size_t k = 0; k < fields[i].count; k++)
			fprintf(f, " %llu", get_elem((const char *)d + fields[i].offset + k * fields[i].size, fields[i].size));
		fputc('\n', f);
	}
	for (int i = 0; i < d->napp; i++)
		fprintf(f, "app %u %u %u\n", d->app[i].selector, d->app[i].priority, d->app[i].protocol);
	if (fclose(f) == 0)
		rename(tmp, path);
	else
		unlink(tmp);
}

static void device_log(const char *ifname, const char *fmt, ...)
{
	char path[512];
	path_of(path, sizeof(path), ifname, ".log");
	FILE *f = fopen(path, "a");
	if (!f)
		return;
	va_list ap;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fclose(f);
}

static int managed(const char *ifname)
{
	const char *list = getenv("DCBNL_STANDIN_IFACES");
	if (!list || !*ifname)
		return 0;
	size_t n = strlen(ifname);
	for (const char *p = list; *p;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == n && !strncmp(p, ifname, n))
			return 1;
		if (!e)
			break;
		p = e + 1;
	}
	return 0;
}

/* ---------------------------------------------------------------- netlink attributes -------------- */

struct msgbuf {
	char data[MAX_DGRAM];
	size_t len;
};

static struct nlattr *put_attr(struct msgbuf *b, int type, const void *val, size_t len)
{
	struct nlattr *a = (struct nlattr *)(b->data + b->len);
	size_t total = NLA_ALIGN(NLA_HDRLEN + len);
	if (b->len + total > sizeof(b->data))
		return NULL;
	memset(a, 0, total);
	a->nla_type = (uint16_t)type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + len);
	if (len)
		memcpy((char *)a + NLA_HDRLEN, val, len);
	b->len += total;
	return a;
}

static void put_u8(struct msgbuf *b, int type, uint8_t v) { put_attr(b, type, &v, 1); }

static size_t nest_start(struct msgbuf *b, int type)
{
	size_t at = b->len;
	put_attr(b, type, NULL, 0);
	return at;
}

static void nest_end(struct msgbuf *b, size_t at)
{
	((struct nlattr *)(b->data + at))->nla_len = (uint16_t)(b->len - at);
}

/* tb[type] = the attribute (last one wins, as nla_parse), for types 0..max, from len bytes at p. */
static void parse_attrs(const struct nlattr **tb, int max, const void *p, int len)
{
	memset(tb, 0, sizeof(*tb) * (size_t)(max + 1));
	const struct nlattr *a = p;
	while (len >= (int)NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= len) {
		int type = a->nla_type & NLA_TYPE_MASK;
		if (type <= max)
			tb[type] = a;
		int step = NLA_ALIGN(a->nla_len);
		len -= step;
		a = (const struct nlattr *)((const char *)a + step);
	}
}

static const void *attr_data(const struct nlattr *a) { return (const char *)a + NLA_HDRLEN; }
static int attr_len(const struct nlattr *a) { return a->nla_len - NLA_HDRLEN; }
static uint8_t attr_u8(const struct nlattr *a) { return attr_len(a) >= 1 ? *(const uint8_t *)attr_data(a) : 0; }
static uint16_t attr_u16(const struct nlattr *a)
{
	uint16_t v = 0;
	if (attr_len(a) >= 2)
		memcpy(&v, attr_data(a), 2);
	return v;
}

/* ---------------------------------------------------------------- the commands -------------------- */

/* dcb_app_lookup of net/dcb/dcbnl.c: same selector and protocol, and priority unless prio < 0. */
static int app_find(const struct device *d, uint8_t sel, uint16_t proto, int prio)
{
	for (int i = 0; i < d->napp; i++)
		if (d->app[i].selector == sel && d->app[i].protocol == proto && (prio < 0 || d->app[i].priority == prio))
			return i;
	return -1;
}

static int app_add_front(struct device *d, struct dcb_app a)
{
	if (d->napp >= MAX_APPS)
		return -ENOMEM;
	memmove(&d->app[1], &d->app[0], sizeof(d->app[0]) * (size_t)d->napp);
	d->app[0] = a;
	d->napp++;
	return 0;
}

static void app_remove(struct device *d, int i)
{
	memmove(&d->app[i], &d->app[i + 1], sizeof(d->app[0]) * (size_t)(d->napp - i - 1));
	d->napp--;
}

/* A host-managed driver's ieee_setets check (mlx5e_dbcnl_validate_ets, ixgbe): ETS bandwidths sum to
 * 100 when any TC uses ETS, TCs and TSAs in range. */
static int ets_valid(const struct ieee_ets *e)
{
	int sum = 0, any = 0;
	for (int i = 0; i < 8; i++) {
		if (e->prio_tc[i] >= 8)
			return 0;
		uint8_t t = e->tc_tsa[i];
		if (t != IEEE_8021QAZ_TSA_STRICT && t != IEEE_8021QAZ_TSA_CB_SHAPER && t != IEEE_8021QAZ_TSA_ETS && t != IEEE_8021QAZ_TSA_VENDOR)
			return 0;
		if (t == IEEE_8021QAZ_TSA_ETS) {
			any = 1;
			sum += e->tc_tx_bw[i];
		}
	}
	return !any || sum == 100;
}

static void ieee_fill(struct msgbuf *r, const struct device *d, const char *ifname)
{
	put_attr(r, DCB_ATTR_IFNAME, ifname, strlen(ifname) + 1);
	size_t ieee = nest_start(r, DCB_ATTR_IEEE);
	put_attr(r, DCB_ATTR_IEEE_ETS, &d->ets, sizeof(d->ets));
	put_attr(r, DCB_ATTR_IEEE_MAXRATE, &d->maxrate, sizeof(d->maxrate));
	put_attr(r, DCB_ATTR_IEEE_PFC, &d->pfc, sizeof(d->pfc));
	put_attr(r, DCB_ATTR_DCB_BUFFER, &d->buffer, sizeof(d->buffer));
	size_t apps = nest_start(r, DCB_ATTR_IEEE_APP_TABLE);
	for (int i = 0; i < d->napp; i++)
		put_attr(r, DCB_ATTR_IEEE_APP, &d->app[i], sizeof(d->app[i]));
	nest_end(r, apps);
	nest_end(r, ieee);
	put_u8(r, DCB_ATTR_DCBX, d->dcbx);
}

static void pg_get(struct msgbuf *r, const struct pg_cfg *pg, const struct nlattr *req)
{
	const struct nlattr *tb[DCB_PG_ATTR_MAX + 1], *ptb[DCB_TC_ATTR_PARAM_MAX + 1];
	parse_attrs(tb, DCB_PG_ATTR_MAX, attr_data(req), attr_len(req));
	size_t nest = nest_start(r, DCB_ATTR_PG_CFG);
	for (int i = DCB_PG_ATTR_TC_0; i <= DCB_PG_ATTR_TC_7; i++) {
		const struct nlattr *sel = tb[DCB_PG_ATTR_TC_ALL] ? tb[DCB_PG_ATTR_TC_ALL] : tb[i];
		if (!sel)
			continue;
		parse_attrs(ptb, DCB_TC_ATTR_PARAM_MAX, attr_data(sel), attr_len(sel));
		int all = ptb[DCB_TC_ATTR_PARAM_ALL] != NULL, tc = i - DCB_PG_ATTR_TC_0;
		size_t param = nest_start(r, i);
		if (all || ptb[DCB_TC_ATTR_PARAM_PGID]) put_u8(r, DCB_TC_ATTR_PARAM_PGID, pg->pgid[tc]);
		if (all || ptb[DCB_TC_ATTR_PARAM_UP_MAPPING]) put_u8(r, DCB_TC_ATTR_PARAM_UP_MAPPING, pg->up_map[tc]);
		if (all || ptb[DCB_TC_ATTR_PARAM_STRICT_PRIO]) put_u8(r, DCB_TC_ATTR_PARAM_STRICT_PRIO, pg->prio_type[tc]);
		if (all || ptb[DCB_TC_ATTR_PARAM_BW_PCT]) put_u8(r, DCB_TC_ATTR_PARAM_BW_PCT, pg->bw_pct[tc]);
		nest_end(r, param);
	}
	for (int i = DCB_PG_ATTR_BW_ID_0; i <= DCB_PG_ATTR_BW_ID_7; i++)
		if (tb[DCB_PG_ATTR_BW_ID_ALL] || tb[i])
			put_u8(r, i, pg->bwg[i - DCB_PG_ATTR_BW_ID_0]);
	nest_end(r, nest);
}

/* The driver's setpgtccfg: DCB_ATTR_VALUE_UNDEFINED leaves a parameter as it was (ixgbe). */
static void pg_set(struct pg_cfg *pg, const struct nlattr *req)
{
	const struct nlattr *tb[DCB_PG_ATTR_MAX + 1], *ptb[DCB_TC_ATTR_PARAM_MAX + 1];
	parse_attrs(tb, DCB_PG_ATTR_MAX, attr_data(req), attr_len(req));
	for (int i = DCB_PG_ATTR_TC_0; i <= DCB_PG_ATTR_TC_7; i++) {
		if (!tb[i])
			continue;
		parse_attrs(ptb, DCB_TC_ATTR_PARAM_MAX, attr_data(tb[i]), attr_len(tb[i]));
		int tc = i - DCB_PG_ATTR_TC_0;
		uint8_t v;
#define SETP(attr, member) if (ptb[attr] && (v = attr_u8(ptb[attr])) != DCB_ATTR_VALUE_UNDEFINED) pg->member[tc] = v
		SETP(DCB_TC_ATTR_PARAM_PGID, pgid);
		SETP(DCB_TC_ATTR_PARAM_UP_MAPPING, up_map);
		SETP(DCB_TC_ATTR_PARAM_STRICT_PRIO, prio_type);
		SETP(DCB_TC_ATTR_PARAM_BW_PCT, bw_pct);
#undef SETP
	}
	for (int i = DCB_PG_ATTR_BW_ID_0; i <= DCB_PG_ATTR_BW_ID_7; i++)
		if (tb[i])
			pg->bwg[i - DCB_PG_ATTR_BW_ID_0] = attr_u8(tb[i]);
}

static void hwaddr_of(const char *ifname, uint8_t out[32])
{
	memset(out, 0, 32);
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return;
	struct ifreq ifr;
	memset(&ifr, 0, sizeof(ifr));
	strncpy(ifr.ifr_name, ifname, IFNAMSIZ - 1);
	if (ioctl(s, SIOCGIFHWADDR, &ifr) == 0)
		memcpy(out, ifr.ifr_hwaddr.sa_data, 6);
	close(s);
}

/*
 * Runs one command on the device, writing the reply's attributes into r. Returns 0, or a negative
 * errno for the NLMSG_ERROR (then r is not sent). *changed says whether the device must be stored.
 */
static int run_command(struct device *d, const char *ifname, uint8_t cmd, const struct nlattr *const *tb,
		       struct msgbuf *r, int *changed)
{
	uint8_t v;
	char detail[256];
	switch (cmd) {
	case DCB_CMD_GSTATE:
		put_u8(r, DCB_ATTR_STATE, d->cee_state);
		return 0;
	case DCB_CMD_SSTATE:
		if (!tb[DCB_ATTR_STATE])
			return -EINVAL;
		d->cee_state = attr_u8(tb[DCB_ATTR_STATE]) ? 1 : 0;
		*changed = 1;
		device_log(ifname, "SSTATE %u", d->cee_state);
		put_u8(r, DCB_ATTR_STATE, 0);
		return 0;
	case DCB_CMD_PFC_GCFG: {
		if (!tb[DCB_ATTR_PFC_CFG])
			return -EINVAL;
		const struct nlattr *up[DCB_PFC_UP_ATTR_MAX + 1];
		parse_attrs(up, DCB_PFC_UP_ATTR_MAX, attr_data(tb[DCB_ATTR_PFC_CFG]), attr_len(tb[DCB_ATTR_PFC_CFG]));
		size_t nest = nest_start(r, DCB_ATTR_PFC_CFG);
		for (int i = DCB_PFC_UP_ATTR_0; i <= DCB_PFC_UP_ATTR_7; i++)
			if (up[DCB_PFC_UP_ATTR_ALL] || up[i])
				put_u8(r, i, d->cee_pfc[i - DCB_PFC_UP_ATTR_0]);
		nest_end(r, nest);
		return 0;
	}
	case DCB_CMD_PFC_SCFG: {
		if (!tb[DCB_ATTR_PFC_CFG])
			return -EINVAL;
		const struct nlattr *up[DCB_PFC_UP_ATTR_MAX + 1];
		parse_attrs(up, DCB_PFC_UP_ATTR_MAX, attr_data(tb[DCB_ATTR_PFC_CFG]), attr_len(tb[DCB_ATTR_PFC_CFG]));
		for (int i = DCB_PFC_UP_ATTR_0; i <= DCB_PFC_UP_ATTR_7; i++)
			if (up[i])
				d->cee_pfc[i - DCB_PFC_UP_ATTR_0] = attr_u8(up[i]);
		*changed = 1;
		device_log(ifname, "PFC_SCFG %u %u %u %u %u %u %u %u", d->cee_pfc[0], d->cee_pfc[1], d->cee_pfc[2],
			   d->cee_pfc[3], d->cee_pfc[4], d->cee_pfc[5], d->cee_pfc[6], d->cee_pfc[7]);
		put_u8(r, DCB_ATTR_PFC_CFG, 0);
		return 0;
	}
	case DCB_CMD_GPERM_HWADDR: {
		uint8_t mac[32];
		hwaddr_of(ifname, mac);
		put_attr(r, DCB_ATTR_PERM_HWADDR, mac, sizeof(mac));
		return 0;
	}
	case DCB_CMD_GCAP: {
		if (!tb[DCB_ATTR_CAP])
			return -EINVAL;
		const struct nlattr *c[DCB_CAP_ATTR_MAX + 1];
		parse_attrs(c, DCB_CAP_ATTR_MAX, attr_data(tb[DCB_ATTR_CAP]), attr_len(tb[DCB_ATTR_CAP]));
		/* ixgbe_dcbnl_getcap: PG and PFC yes, UP2TC no, 8 TCs (bitmask 0x80), GSP yes, BCN no */
		const uint8_t caps[DCB_CAP_ATTR_MAX + 1] = {
			[DCB_CAP_ATTR_PG] = 1, [DCB_CAP_ATTR_PFC] = 1, [DCB_CAP_ATTR_UP2TC] = 0,
			[DCB_CAP_ATTR_PG_TCS] = 0x80, [DCB_CAP_ATTR_PFC_TCS] = 0x80, [DCB_CAP_ATTR_GSP] = 1,
			[DCB_CAP_ATTR_BCN] = 0, [DCB_CAP_ATTR_DCBX] = 0,
		};
		size_t nest = nest_start(r, DCB_ATTR_CAP);
		for (int i = DCB_CAP_ATTR_ALL + 1; i <= DCB_CAP_ATTR_MAX; i++)
			if (c[DCB_CAP_ATTR_ALL] || c[i])
				put_u8(r, i, i == DCB_CAP_ATTR_DCBX ? d->dcbx_cap : caps[i]);
		nest_end(r, nest);
		return 0;
	}
	case DCB_CMD_GNUMTCS: {
		if (!tb[DCB_ATTR_NUMTCS])
			return -EINVAL;
		const struct nlattr *c[DCB_NUMTCS_ATTR_MAX + 1];
		parse_attrs(c, DCB_NUMTCS_ATTR_MAX, attr_data(tb[DCB_ATTR_NUMTCS]), attr_len(tb[DCB_ATTR_NUMTCS]));
		size_t nest = nest_start(r, DCB_ATTR_NUMTCS);
		if (c[DCB_NUMTCS_ATTR_ALL] || c[DCB_NUMTCS_ATTR_PG]) put_u8(r, DCB_NUMTCS_ATTR_PG, d->cee_numtcs_pg);
		if (c[DCB_NUMTCS_ATTR_ALL] || c[DCB_NUMTCS_ATTR_PFC]) put_u8(r, DCB_NUMTCS_ATTR_PFC, d->cee_numtcs_pfc);
		nest_end(r, nest);
		return 0;
	}
	case DCB_CMD_SNUMTCS: {
		if (!tb[DCB_ATTR_NUMTCS])
			return -EINVAL;
		const struct nlattr *c[DCB_NUMTCS_ATTR_MAX + 1];
		parse_attrs(c, DCB_NUMTCS_ATTR_MAX, attr_data(tb[DCB_ATTR_NUMTCS]), attr_len(tb[DCB_ATTR_NUMTCS]));
		int bad = 0; /* ixgbe: the number of TCs is fixed at 8 */
		if (c[DCB_NUMTCS_ATTR_PG] && attr_u8(c[DCB_NUMTCS_ATTR_PG]) != 8) bad = 1;
		if (c[DCB_NUMTCS_ATTR_PFC] && attr_u8(c[DCB_NUMTCS_ATTR_PFC]) != 8) bad = 1;
		put_u8(r, DCB_ATTR_NUMTCS, (uint8_t)bad);
		return 0;
	}
	case DCB_CMD_PFC_GSTATE:
		put_u8(r, DCB_ATTR_PFC_STATE, d->cee_pfc_state);
		return 0;
	case DCB_CMD_PFC_SSTATE:
		if (!tb[DCB_ATTR_PFC_STATE])
			return -EINVAL;
		d->cee_pfc_state = attr_u8(tb[DCB_ATTR_PFC_STATE]) ? 1 : 0;
		*changed = 1;
		device_log(ifname, "PFC_SSTATE %u", d->cee_pfc_state);
		put_u8(r, DCB_ATTR_PFC_STATE, 0);
		return 0;
	case DCB_CMD_GAPP:
	case DCB_CMD_SAPP: {
		if (!tb[DCB_ATTR_APP])
			return -EINVAL;
		const struct nlattr *a[DCB_APP_ATTR_MAX + 1];
		parse_attrs(a, DCB_APP_ATTR_MAX, attr_data(tb[DCB_ATTR_APP]), attr_len(tb[DCB_ATTR_APP]));
		if (!a[DCB_APP_ATTR_IDTYPE] || !a[DCB_APP_ATTR_ID])
			return -EINVAL;
		uint8_t idtype = attr_u8(a[DCB_APP_ATTR_IDTYPE]);
		uint16_t id = attr_u16(a[DCB_APP_ATTR_ID]);
		if (idtype != DCB_APP_IDTYPE_ETHTYPE && idtype != DCB_APP_IDTYPE_PORTNUM)
			return -EINVAL;
		int at = app_find(d, idtype, id, -1);
		if (cmd == DCB_CMD_GAPP) {
			size_t nest = nest_start(r, DCB_ATTR_APP);
			put_u8(r, DCB_APP_ATTR_IDTYPE, idtype);
			put_attr(r, DCB_APP_ATTR_ID, &id, 2);
			put_u8(r, DCB_APP_ATTR_PRIORITY, at >= 0 ? d->app[at].priority : 0);
			nest_end(r, nest);
			return 0;
		}
		if (!a[DCB_APP_ATTR_PRIORITY])
			return -EINVAL;
		uint8_t up = attr_u8(a[DCB_APP_ATTR_PRIORITY]);
		int err = 0; /* dcb_setapp: replace the priority map, remove with 0, add otherwise */
		if (at >= 0 && up)
			d->app[at].priority = up;
		else if (at >= 0)
			app_remove(d, at);
		else if (up)
			err = app_add_front(d, (struct dcb_app){ .selector = idtype, .priority = up, .protocol = id });
		*changed = 1;
		device_log(ifname, "SAPP %u %u %u", idtype, id, up);
		put_u8(r, DCB_ATTR_APP, (uint8_t)err);
		return 0;
	}
	case DCB_CMD_PGTX_GCFG:
	case DCB_CMD_PGRX_GCFG:
		if (!tb[DCB_ATTR_PG_CFG])
			return -EINVAL;
		pg_get(r, cmd == DCB_CMD_PGTX_GCFG ? &d->pgtx : &d->pgrx, tb[DCB_ATTR_PG_CFG]);
		return 0;
	case DCB_CMD_PGTX_SCFG:
	case DCB_CMD_PGRX_SCFG:
		if (!tb[DCB_ATTR_PG_CFG])
			return -EINVAL;
		pg_set(cmd == DCB_CMD_PGTX_SCFG ? &d->pgtx : &d->pgrx, tb[DCB_ATTR_PG_CFG]);
		*changed = 1;
		device_log(ifname, "%s", cmd == DCB_CMD_PGTX_SCFG ? "PGTX_SCFG" : "PGRX_SCFG");
		put_u8(r, DCB_ATTR_PG_CFG, 0);
		return 0;
	case DCB_CMD_SET_ALL:
		if (!tb[DCB_ATTR_SET_ALL])
			return -EINVAL;
		d->cee_setall++;
		*changed = 1;
		device_log(ifname, "SET_ALL %lu", d->cee_setall);
		put_u8(r, DCB_ATTR_SET_ALL, 0); /* ixgbe: 0 = applied, no reset needed */
		return 0;
	case DCB_CMD_GFEATCFG: {
		if (!tb[DCB_ATTR_FEATCFG])
			return -EINVAL;
		const struct nlattr *c[DCB_FEATCFG_ATTR_MAX + 1];
		parse_attrs(c, DCB_FEATCFG_ATTR_MAX, attr_data(tb[DCB_ATTR_FEATCFG]), attr_len(tb[DCB_ATTR_FEATCFG]));
		size_t nest = nest_start(r, DCB_ATTR_FEATCFG);
		if (c[DCB_FEATCFG_ATTR_ALL] || c[DCB_FEATCFG_ATTR_PG]) put_u8(r, DCB_FEATCFG_ATTR_PG, d->feat_pg);
		if (c[DCB_FEATCFG_ATTR_ALL] || c[DCB_FEATCFG_ATTR_PFC]) put_u8(r, DCB_FEATCFG_ATTR_PFC, d->feat_pfc);
		if (c[DCB_FEATCFG_ATTR_ALL] || c[DCB_FEATCFG_ATTR_APP]) put_u8(r, DCB_FEATCFG_ATTR_APP, d->feat_app);
		nest_end(r, nest);
		return 0;
	}
	case DCB_CMD_SFEATCFG: {
		if (!tb[DCB_ATTR_FEATCFG])
			return -EINVAL;
		const struct nlattr *c[DCB_FEATCFG_ATTR_MAX + 1];
		parse_attrs(c, DCB_FEATCFG_ATTR_MAX, attr_data(tb[DCB_ATTR_FEATCFG]), attr_len(tb[DCB_ATTR_FEATCFG]));
		if (c[DCB_FEATCFG_ATTR_PG]) d->feat_pg = attr_u8(c[DCB_FEATCFG_ATTR_PG]);
		if (c[DCB_FEATCFG_ATTR_PFC]) d->feat_pfc = attr_u8(c[DCB_FEATCFG_ATTR_PFC]);
		if (c[DCB_FEATCFG_ATTR_APP]) d->feat_app = attr_u8(c[DCB_FEATCFG_ATTR_APP]);
		*changed = 1;
		device_log(ifname, "SFEATCFG %u %u %u", d->feat_pg, d->feat_pfc, d->feat_app);
		put_u8(r, DCB_ATTR_FEATCFG, 0);
		return 0;
	}
	case DCB_CMD_GDCBX:
		put_u8(r, DCB_ATTR_DCBX, d->dcbx);
		return 0;
	case DCB_CMD_SDCBX: {
		if (!tb[DCB_ATTR_DCBX])
			return -EINVAL;
		v = attr_u8(tb[DCB_ATTR_DCBX]);
		/* ixgbe_dcbnl_setdcbx: host mode only, within the capability; 1 = refused */
		int refused = (v & DCB_CAP_DCBX_LLD_MANAGED) || !(v & DCB_CAP_DCBX_HOST) || (v & ~d->dcbx_cap);
		if (!refused) {
			d->dcbx = v;
			*changed = 1;
		}
		device_log(ifname, "SDCBX %u %s", v, refused ? "refused" : "ok");
		put_u8(r, DCB_ATTR_DCBX, (uint8_t)refused);
		return 0;
	}
	case DCB_CMD_IEEE_GET:
		ieee_fill(r, d, ifname);
		return 0;
	case DCB_CMD_IEEE_SET:
	case DCB_CMD_IEEE_DEL: {
		if (!tb[DCB_ATTR_IEEE])
			return -EINVAL;
		const struct nlattr *ie[DCB_ATTR_IEEE_MAX + 1];
		parse_attrs(ie, DCB_ATTR_IEEE_MAX, attr_data(tb[DCB_ATTR_IEEE]), attr_len(tb[DCB_ATTR_IEEE]));
		int err = 0, at = 0;
		at += snprintf(detail + at, sizeof(detail) - (size_t)at, "%s", cmd == DCB_CMD_IEEE_SET ? "IEEE_SET" : "IEEE_DEL");
		if (cmd == DCB_CMD_IEEE_SET) {
			if (ie[DCB_ATTR_IEEE_ETS]) {
				struct ieee_ets e;
				if (attr_len(ie[DCB_ATTR_IEEE_ETS]) < (int)sizeof(e))
					return -EINVAL;
				memcpy(&e, attr_data(ie[DCB_ATTR_IEEE_ETS]), sizeof(e));
				if (!ets_valid(&e)) {
					err = -EINVAL;
					goto ieee_done;
				}
				e.ets_cap = d->ets.ets_cap; /* a capability, not settable */
				d->ets = e;
				at += snprintf(detail + at, sizeof(detail) - (size_t)at, " ets");
			}
			if (ie[DCB_ATTR_IEEE_MAXRATE]) {
				if (attr_len(ie[DCB_ATTR_IEEE_MAXRATE]) < (int)sizeof(d->maxrate))
					return -EINVAL;
				memcpy(&d->maxrate, attr_data(ie[DCB_ATTR_IEEE_MAXRATE]), sizeof(d->maxrate));
				at += snprintf(detail + at, sizeof(detail) - (size_t)at, " maxrate");
			}
			if (ie[DCB_ATTR_IEEE_PFC]) {
				struct ieee_pfc p;
				if (attr_len(ie[DCB_ATTR_IEEE_PFC]) < (int)sizeof(p))
					return -EINVAL;
				memcpy(&p, attr_data(ie[DCB_ATTR_IEEE_PFC]), sizeof(p));
				d->pfc.pfc_en = p.pfc_en;
				d->pfc.mbc = p.mbc;
				d->pfc.delay = p.delay; /* pfc_cap, requests, indications are the device's */
				at += snprintf(detail + at, sizeof(detail) - (size_t)at, " pfc");
			}
			if (ie[DCB_ATTR_DCB_BUFFER]) {
				if (attr_len(ie[DCB_ATTR_DCB_BUFFER]) < (int)sizeof(d->buffer))
					return -EINVAL;
				memcpy(&d->buffer, attr_data(ie[DCB_ATTR_DCB_BUFFER]), sizeof(d->buffer));
				at += snprintf(detail + at, sizeof(detail) - (size_t)at, " buffer");
			}
		}
		if (ie[DCB_ATTR_IEEE_APP_TABLE]) {
			const struct nlattr *t = ie[DCB_ATTR_IEEE_APP_TABLE];
			const struct nlattr *a = attr_data(t);
			int rem = attr_len(t);
			while (rem >= (int)NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= rem) {
				if ((a->nla_type & NLA_TYPE_MASK) == DCB_ATTR_IEEE_APP) {
					struct dcb_app app;
					if (attr_len(a) < (int)sizeof(app)) {
						err = -ERANGE;
						goto ieee_done;
					}
					memcpy(&app, attr_data(a), sizeof(app));
					int i = app_find(d, app.selector, app.protocol, app.priority);
					if (cmd == DCB_CMD_IEEE_SET) /* dcb_ieee_setapp: an exact duplicate is -EEXIST */
						err = i >= 0 ? -EEXIST : app_add_front(d, app);
					else if (i >= 0) /* dcb_ieee_delapp */
						app_remove(d, i);
					else
						err = -ENOENT;
					at += snprintf(detail + at, sizeof(detail) - (size_t)at, " app:%u/%u/%u", app.selector, app.protocol, app.priority);
					if (err)
						goto ieee_done;
				}
				int step = NLA_ALIGN(a->nla_len);
				rem -= step;
				a = (const struct nlattr *)((const char *)a + step);
			}
		}
	ieee_done:
		*changed = 1;
		device_log(ifname, "%s -> %d", detail, err);
		put_u8(r, DCB_ATTR_IEEE, (uint8_t)err); /* dcbnl_ieee_set: nla_put_u8(skb, DCB_ATTR_IEEE, err) */
		return 0;
	}
	default: /* BCN_GCFG/BCN_SCFG and CEE_GET: a driver without those ops */
		return -EOPNOTSUPP;
	}
}

/* ---------------------------------------------------------------- the queue per socket ------------ */

struct dgram {
	struct dgram *next;
	size_t len;
	char data[];
};

static struct dgram *queue[MAX_FD];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void enqueue(int fd, const void *data, size_t len)
{
	struct dgram *g = malloc(sizeof(*g) + len);
	if (!g)
		return;
	g->next = NULL;
	g->len = len;
	memcpy(g->data, data, len);
	struct dgram **p = &queue[fd];
	while (*p)
		p = &(*p)->next;
	*p = g;
}

static int is_route_socket(int fd)
{
	int v = 0;
	socklen_t l = sizeof(v);
	if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &v, &l) || v != AF_NETLINK)
		return 0;
	l = sizeof(v);
	return !getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &v, &l) && v == NETLINK_ROUTE;
}

/* The DCB interface name of a request, or NULL. */
static const char *dcb_ifname(const struct nlmsghdr *h, const struct nlattr **tb)
{
	if ((h->nlmsg_type != RTM_GETDCB && h->nlmsg_type != RTM_SETDCB) ||
	    h->nlmsg_len < NLMSG_LENGTH(sizeof(struct dcbmsg)))
		return NULL;
	const struct dcbmsg *m = NLMSG_DATA(h);
	size_t off = NLMSG_ALIGN(sizeof(*m));
	parse_attrs(tb, DCB_ATTR_MAX, (const char *)m + off, (int)(h->nlmsg_len - NLMSG_LENGTH(off)));
	const struct nlattr *n = tb[DCB_ATTR_IFNAME];
	if (!n || attr_len(n) < 1 || ((const char *)attr_data(n))[attr_len(n) - 1] != 0)
		return NULL;
	return attr_data(n);
}

/* reply_funcs[] of net/dcb/dcbnl.c: the message type each command answers with. */
static uint16_t reply_type(uint8_t cmd)
{
	switch (cmd) {
	case DCB_CMD_SSTATE: case DCB_CMD_PGTX_SCFG: case DCB_CMD_PGRX_SCFG: case DCB_CMD_PFC_SCFG:
	case DCB_CMD_SET_ALL: case DCB_CMD_SNUMTCS: case DCB_CMD_PFC_SSTATE: case DCB_CMD_BCN_SCFG:
	case DCB_CMD_SAPP: case DCB_CMD_IEEE_SET: case DCB_CMD_IEEE_DEL: case DCB_CMD_SDCBX:
	case DCB_CMD_SFEATCFG:
		return RTM_SETDCB;
	default:
		return RTM_GETDCB;
	}
}

static uint32_t port_id(int fd)
{
	struct sockaddr_nl a;
	socklen_t l = sizeof(a);
	memset(&a, 0, sizeof(a));
	if (getsockname(fd, (struct sockaddr *)&a, &l))
		return 0;
	return a.nl_pid;
}

static void queue_error(int fd, const struct nlmsghdr *req, int err)
{
	struct msgbuf b;
	size_t payload = err ? req->nlmsg_len : sizeof(*req); /* the netlink core echoes the request on error */
	struct nlmsghdr *h = (struct nlmsghdr *)b.data;
	memset(h, 0, sizeof(*h));
	h->nlmsg_type = NLMSG_ERROR;
	h->nlmsg_flags = err ? 0 : NLM_F_CAPPED;
	h->nlmsg_seq = req->nlmsg_seq;
	h->nlmsg_pid = port_id(fd);
	struct nlmsgerr *e = NLMSG_DATA(h);
	e->error = err;
	if (payload > sizeof(b.data) - NLMSG_LENGTH(sizeof(int)))
		payload = sizeof(*req);
	memcpy(&e->msg, req, payload);
	h->nlmsg_len = (uint32_t)NLMSG_LENGTH(sizeof(int) + payload);
	enqueue(fd, b.data, h->nlmsg_len);
}

/* Answers one DCB request: reply (and ack) or an error, queued on fd. */
static void answer(int fd, const struct nlmsghdr *req, const struct nlattr **tb, const char *ifname)
{
	const struct dcbmsg *m = NLMSG_DATA(req);
	char lockpath[512];
	snprintf(lockpath, sizeof(lockpath), "%s/.lock", state_dir());
	int lk = open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (lk >= 0)
		flock(lk, LOCK_EX);
	struct device *d = malloc(sizeof(*d));
	struct msgbuf *r = malloc(sizeof(*r));
	if (!d || !r) {
		queue_error(fd, req, -ENOMEM);
		goto out;
	}
	device_load(d, ifname);
	struct nlmsghdr *h = (struct nlmsghdr *)r->data;
	memset(r->data, 0, NLMSG_LENGTH(sizeof(struct dcbmsg)));
	r->len = NLMSG_LENGTH(NLMSG_ALIGN(sizeof(struct dcbmsg)));
	int changed = 0;
	int err = m->cmd > DCB_CMD_MAX ? -EINVAL : run_command(d, ifname, m->cmd, tb, r, &changed);
	if (changed)
		device_store(d, ifname);
	if (err) {
		queue_error(fd, req, err);
		goto out;
	}
	h->nlmsg_len = (uint32_t)r->len;
	h->nlmsg_type = reply_type(m->cmd);
	h->nlmsg_flags = req->nlmsg_flags; /* dcbnl_newmsg(fn->type, cmd, portid, seq, nlh->nlmsg_flags) */
	h->nlmsg_seq = req->nlmsg_seq;
	h->nlmsg_pid = port_id(fd);
	struct dcbmsg *rm = NLMSG_DATA(h);
	rm->dcb_family = AF_UNSPEC;
	rm->cmd = m->cmd;
	enqueue(fd, r->data, r->len);
	if (req->nlmsg_flags & NLM_F_ACK)
		queue_error(fd, req, 0);
out:
	free(d);
	free(r);
	if (lk >= 0)
		close(lk); /* releases the flock */
}

/* 1 when the datagram was answered here, 0 when it belongs to the kernel. */
static int intercept(int fd, const void *buf, size_t len)
{
	if (fd < 0 || fd >= MAX_FD || len < sizeof(struct nlmsghdr))
		return 0;
	const struct nlmsghdr *h = buf;
	if (h->nlmsg_type != RTM_GETDCB && h->nlmsg_type != RTM_SETDCB)
		return 0;
	if (!is_route_socket(fd))
		return 0;
	const struct nlattr *tb[DCB_ATTR_MAX + 1];
	size_t rem = len;
	for (const struct nlmsghdr *p = h; NLMSG_OK(p, rem); p = NLMSG_NEXT(p, rem)) {
		const char *ifname = dcb_ifname(p, tb);
		if (!ifname || !managed(ifname) || !if_nametoindex(ifname)) /* no such device: the kernel's -ENODEV */
			return 0;
	}
	pthread_mutex_lock(&lock);
	rem = len;
	for (const struct nlmsghdr *p = h; NLMSG_OK(p, rem); p = NLMSG_NEXT(p, rem))
		answer(fd, p, tb, dcb_ifname(p, tb));
	pthread_mutex_unlock(&lock);
	return 1;
}

/* Takes the first queued datagram into iov; -1 when the queue is empty. */
static ssize_t dequeue(int fd, const struct iovec *iov, size_t iovlen, int flags, int *truncated, void *name, socklen_t *namelen)
{
	if (fd < 0 || fd >= MAX_FD)
		return -1;
	pthread_mutex_lock(&lock);
	struct dgram *g = queue[fd];
	if (!g) {
		pthread_mutex_unlock(&lock);
		return -1;
	}
	size_t done = 0;
	for (size_t i = 0; i < iovlen && done < g->len; i++) {
		size_t n = g->len - done < iov[i].iov_len ? g->len - done : iov[i].iov_len;
		memcpy(iov[i].iov_base, g->data + done, n);
		done += n;
	}
	*truncated = done < g->len;
	ssize_t ret = (flags & MSG_TRUNC) ? (ssize_t)g->len : (ssize_t)done;
	if (name && namelen) {
		struct sockaddr_nl k = { .nl_family = AF_NETLINK };
		socklen_t n = *namelen < sizeof(k) ? *namelen : sizeof(k);
		memcpy(name, &k, n);
		*namelen = sizeof(k);
	}
	if (!(flags & MSG_PEEK)) {
		queue[fd] = g->next;
		free(g);
	}
	pthread_mutex_unlock(&lock);
	return ret;
}

/* ---------------------------------------------------------------- the interposed calls ------------ */

#define REAL(name, ret, ...) \
	static ret (*real_##name)(__VA_ARGS__); \
	if (!real_##name) real_##name = (ret(*)(__VA_ARGS__))dlsym(RTLD_NEXT, #name)

ssize_t sendto(int fd, const void *buf, size_t len, int flags, const struct sockaddr *to, socklen_t tolen)
{
	REAL(sendto, ssize_t, int, const void *, size_t, int, const struct sockaddr *, socklen_t);
	if (intercept(fd, buf, len))
		return (ssize_t)len;
	return real_sendto(fd, buf, len, flags, to, tolen);
}

ssize_t send(int fd, const void *buf, size_t len, int flags)
{
	REAL(send, ssize_t, int, const void *, size_t, int);
	if (intercept(fd, buf, len))
		return (ssize_t)len;
	return real_send(fd, buf, len, flags);
}

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	REAL(sendmsg, ssize_t, int, const struct msghdr *, int);
	size_t total = 0;
	for (size_t i = 0; i < msg->msg_iovlen; i++)
		total += msg->msg_iov[i].iov_len;
	if (total >= sizeof(struct nlmsghdr) && total <= MAX_DGRAM && msg->msg_iovlen > 0) {
		char *flat = malloc(total);
		if (flat) {
			size_t at = 0;
			for (size_t i = 0; i < msg->msg_iovlen; i++) {
				memcpy(flat + at, msg->msg_iov[i].iov_base, msg->msg_iov[i].iov_len);
				at += msg->msg_iov[i].iov_len;
			}
			int mine = intercept(fd, flat, total);
			free(flat);
			if (mine)
				return (ssize_t)total;
		}
	}
	return real_sendmsg(fd, msg, flags);
}

ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	REAL(recvmsg, ssize_t, int, struct msghdr *, int);
	int trunc = 0;
	ssize_t n = dequeue(fd, msg->msg_iov, msg->msg_iovlen, flags, &trunc, msg->msg_name, &msg->msg_namelen);
	if (n >= 0) {
		msg->msg_controllen = 0;
		msg->msg_flags = trunc ? MSG_TRUNC : 0;
		return n;
	}
	return real_recvmsg(fd, msg, flags);
}

ssize_t recvfrom(int fd, void *buf, size_t len, int flags, struct sockaddr *from, socklen_t *fromlen)
{
	REAL(recvfrom, ssize_t, int, void *, size_t, int, struct sockaddr *, socklen_t *);
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	int trunc = 0;
	ssize_t n = dequeue(fd, &iov, 1, flags, &trunc, from, fromlen);
	if (n >= 0)
		return n;
	return real_recvfrom(fd, buf, len, flags, from, fromlen);
}

ssize_t recv(int fd, void *buf, size_t len, int flags)
{
	REAL(recv, ssize_t, int, void *, size_t, int);
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	int trunc = 0;
	ssize_t n = dequeue(fd, &iov, 1, flags, &trunc, NULL, NULL);
	if (n >= 0)
		return n;
	return real_recv(fd, buf, len, flags);
}

ssize_t read(int fd, void *buf, size_t len)
{
	REAL(read, ssize_t, int, void *, size_t);
	if (fd >= 0 && fd < MAX_FD && queue[fd]) {
		struct iovec iov = { .iov_base = buf, .iov_len = len };
		int trunc = 0;
		ssize_t n = dequeue(fd, &iov, 1, 0, &trunc, NULL, NULL);
		if (n >= 0)
			return n;
	}
	return real_read(fd, buf, len);
}

int close(int fd)
{
	REAL(close, int, int);
	if (fd >= 0 && fd < MAX_FD && queue[fd]) {
		pthread_mutex_lock(&lock);
		while (queue[fd]) {
			struct dgram *g = queue[fd];
			queue[fd] = g->next;
			free(g);
		}
		pthread_mutex_unlock(&lock);
	}
	return real_close(fd);
}
