// SPDX-License-Identifier: GPL-2.0-only
/*
 * net-tools' `netstat -s` text (also -su, -st, -s -6; sosreport sos_commands/networking/netstat_-s
 * and, sos 4.9.2+, netstat_-s_-6) into the counter names /proc/net/{snmp,netstat} fill
 * ("UdpRcvbufErrors"), for trees that hold the text and not the /proc file.
 *
 * netstat prints a "Section:" line (Ip, Icmp, IcmpMsg, Tcp, Udp, UdpLite, TcpExt, IpExt,
 * MPTcpExt; Ip6, Icmp6, Udp6 with -6), then, indented, one line per counter in one of two forms:
 *   - a sentence from net-tools' table (statistics.c) with the value in it: "3 fast retransmits",
 *     "Quick ack mode was activated 9 times";
 *   - "Name: value" for a counter the table does not know ("MemErrors: 1945378"), named after
 *     the section as nstat names it (UdpMemErrors). Under -6 sections the names are already
 *     whole ("Udp6MemErrors: 5").
 * The sentences below are every wording net-tools' statistics.c had from 1998 to 2.10 and its
 * git head of 2025 (ecki/net-tools history, including 1.60, the 2.0 snapshots of RHEL 7 and
 * Debian's 1.60+git): "segments retransmited" (to 2015) and "segments retransmitted" alike.
 * A sentence is matched whole, in its own section, with blanks collapsed and a final '.'
 * dropped (1.60 ended some with one); anything else (ICMP histograms, "Forwarding is enabled",
 * error lines, a shell prompt in a paste, other locales' translations) is ignored, never
 * guessed at. The one wording that once meant another counter ("packets pruned from
 * out-of-order queue", RcvPruned in a 1999 snapshot) is left out.
 *
 * netstat leaves out most zero counters (the table's optional ones, and unknown ones since
 * 2001): like nstat without -z, an absent counter here is zero or not in that kernel.
 */
#include "parse.h"
#include "parse_util.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define SENTENCE_MAX 128

struct sentence {
	const char *section;
	const char *text;	/* "%N" where the value stands */
	const char *name;
};

static const struct sentence sentences[] = {
	{ "Icmp", "%N input ICMP message failed", "IcmpInErrors" },
	{ "Icmp", "%N ICMP messages received", "IcmpInMsgs" },
	{ "Icmp", "%N ICMP messages failed", "IcmpOutErrors" },
	{ "Icmp", "%N ICMP messages sent", "IcmpOutMsgs" },
	{ "Icmp6", "%N input ICMP message failed", "Icmp6InErrors" },
	{ "Icmp6", "%N ICMP messages received", "Icmp6InMsgs" },
	{ "Icmp6", "%N ICMP messages sent", "Icmp6OutMsgs" },
	{ "Ip", "%N forwarded", "IpForwDatagrams" },
	{ "Ip", "%N fragments created", "IpFragCreates" },
	{ "Ip", "%N fragments failed", "IpFragFails" },
	{ "Ip", "%N outgoing packets failed fragmentation", "IpFragFails" },
	{ "Ip", "%N fragments received ok", "IpFragOKs" },
	{ "Ip", "%N outgoing packets fragmented ok", "IpFragOKs" },
	{ "Ip", "%N with invalid addresses", "IpInAddrErrors" },
	{ "Ip", "%N incoming packets delivered", "IpInDelivers" },
	{ "Ip", "%N incoming packets discarded", "IpInDiscards" },
	{ "Ip", "%N with invalid headers", "IpInHdrErrors" },
	{ "Ip", "%N total packets received", "IpInReceives" },
	{ "Ip", "%N with unknown protocol", "IpInUnknownProtos" },
	{ "Ip", "%N outgoing packets dropped", "IpOutDiscards" },
	{ "Ip", "%N dropped because of missing route", "IpOutNoRoutes" },
	{ "Ip", "%N requests sent out", "IpOutRequests" },
	{ "Ip", "%N packet reassembles failed", "IpReasmFails" },
	{ "Ip", "%N packet reassemblies failed", "IpReasmFails" },
	{ "Ip", "%N packets reassembled ok", "IpReasmOKs" },
	{ "Ip", "%N reassemblies required", "IpReasmReqds" },
	{ "Ip", "%N fragments dropped after timeout", "IpReasmTimeout" },
	{ "Ip6", "%N fragments created", "Ip6FragCreates" },
	{ "Ip6", "%N fragments failed", "Ip6FragFails" },
	{ "Ip6", "%N outgoing packets failed fragmentation", "Ip6FragFails" },
	{ "Ip6", "%N fragments received ok", "Ip6FragOKs" },
	{ "Ip6", "%N outgoing packets fragmented ok", "Ip6FragOKs" },
	{ "Ip6", "%N with invalid addresses", "Ip6InAddrErrors" },
	{ "Ip6", "%N incoming packets delivered", "Ip6InDelivers" },
	{ "Ip6", "%N incoming packets discarded", "Ip6InDiscards" },
	{ "Ip6", "%N with invalid headers", "Ip6InHdrErrors" },
	{ "Ip6", "%N incoming multicast packets", "Ip6InMcastPkts" },
	{ "Ip6", "%N incoming packets with no route", "Ip6InNoRoutes" },
	{ "Ip6", "%N total packets received", "Ip6InReceives" },
	{ "Ip6", "%N with packets too big", "Ip6InTooBigErrors" },
	{ "Ip6", "%N with truncated packets", "Ip6InTruncatedPkts" },
	{ "Ip6", "%N with unknown protocol", "Ip6InUnknownProtos" },
	{ "Ip6", "%N outgoing packets dropped", "Ip6OutDiscards" },
	{ "Ip6", "%N forwarded", "Ip6OutForwDatagrams" },
	{ "Ip6", "%N outgoing multicast packets", "Ip6OutMcastPkts" },
	{ "Ip6", "%N dropped because of missing route", "Ip6OutNoRoutes" },
	{ "Ip6", "%N requests sent out", "Ip6OutRequests" },
	{ "Ip6", "%N packet reassembles failed", "Ip6ReasmFails" },
	{ "Ip6", "%N packet reassemblies failed", "Ip6ReasmFails" },
	{ "Ip6", "%N packets reassembled ok", "Ip6ReasmOKs" },
	{ "Ip6", "%N reassemblies required", "Ip6ReasmReqds" },
	{ "Ip6", "%N fragments dropped after timeout", "Ip6ReasmTimeout" },
	{ "Tcp", "%N active connection openings", "TcpActiveOpens" },
	{ "Tcp", "%N active connections openings", "TcpActiveOpens" },
	{ "Tcp", "%N active opens", "TcpActiveOpens" },
	{ "Tcp", "%N failed connection attempts", "TcpAttemptFails" },
	{ "Tcp", "%N connections established", "TcpCurrEstab" },
	{ "Tcp", "%N connection resets received", "TcpEstabResets" },
	{ "Tcp", "%N bad segments received", "TcpInErrs" },
	{ "Tcp", "%N segments received", "TcpInSegs" },
	{ "Tcp", "%N resets sent", "TcpOutRsts" },
	{ "Tcp", "%N segments send out", "TcpOutSegs" },
	{ "Tcp", "%N segments sent out", "TcpOutSegs" },
	{ "Tcp", "%N passive connection openings", "TcpPassiveOpens" },
	{ "Tcp", "%N passive opens", "TcpPassiveOpens" },
	{ "Tcp", "%N segments retransmited", "TcpRetransSegs" },
	{ "Tcp", "%N segments retransmitted", "TcpRetransSegs" },
	{ "TcpExt", "%N delayed acks further delayed because of locked socket", "TcpExtDelayedACKLocked" },
	{ "TcpExt", "Quick ack mode was activated %N times", "TcpExtDelayedACKLost" },
	{ "TcpExt", "%N delayed acks sent", "TcpExtDelayedACKs" },
	{ "TcpExt", "%N resets received for embryonic SYN_RECV sockets", "TcpExtEmbryonicRsts" },
	{ "TcpExt", "%N SYNs to LISTEN sockets dropped", "TcpExtListenDrops" },
	{ "TcpExt", "%N SYNs to LISTEN sockets ignored", "TcpExtListenDrops" },
	{ "TcpExt", "%N times the listen queue of a socket overflowed", "TcpExtListenOverflows" },
	{ "TcpExt", "%N ICMP packets dropped because socket was locked", "TcpExtLockDroppedIcmps" },
	{ "TcpExt", "%N packets dropped from out-of-order queue because of socket buffer overrun", "TcpExtOfoPruned" },
	{ "TcpExt", "%N ICMP packets dropped because they were out-of-window", "TcpExtOutOfWindowIcmps" },
	{ "TcpExt", "%N active connections rejected because of time stamp", "TcpExtPAWSActive" },
	{ "TcpExt", "%N packetes rejected in established connections because of timestamp", "TcpExtPAWSEstab" },
	{ "TcpExt", "%N packets rejected in established connections because of timestamp", "TcpExtPAWSEstab" },
	{ "TcpExt", "%N packets rejects in established connections because of timestamp", "TcpExtPAWSEstab" },
	{ "TcpExt", "%N passive connections rejected because of time stamp", "TcpExtPAWSPassive" },
	{ "TcpExt", "%N packets pruned from receive queue because of socket buffer overrun", "TcpExtPruneCalled" },
	{ "TcpExt", "%N packets pruned from receive queue", "TcpExtRcvPruned" },
	{ "TcpExt", "Ran %N times out of system memory during packet sending", "TcpExtSockMallocOOM" },
	{ "TcpExt", "%N SYN cookies failed", "TcpExtSyncookiesFailed" },
	{ "TcpExt", "%N invalid SYN cookies received", "TcpExtSyncookiesFailed" },
	{ "TcpExt", "%N SYN cookies received", "TcpExtSyncookiesRecv" },
	{ "TcpExt", "%N SYN cookies sent", "TcpExtSyncookiesSent" },
	{ "TcpExt", "%N times unable to send RST due to no memory", "TcpExtTCPAbortFailed" },
	{ "TcpExt", "%N times unabled to send RST due to no memory", "TcpExtTCPAbortFailed" },
	{ "TcpExt", "%N connections reset due to early user close", "TcpExtTCPAbortOnClose" },
	{ "TcpExt", "%N connections reset due to unexpected data", "TcpExtTCPAbortOnData" },
	{ "TcpExt", "%N connections aborted after user close in linger timeout", "TcpExtTCPAbortOnLinger" },
	{ "TcpExt", "%N connections aborted due to memory pressure", "TcpExtTCPAbortOnMemory" },
	{ "TcpExt", "%N connections reset due to unexpected SYN", "TcpExtTCPAbortOnSyn" },
	{ "TcpExt", "%N connections aborted due to timeout", "TcpExtTCPAbortOnTimeout" },
	{ "TcpExt", "%N DSACKs for out of order packets received", "TcpExtTCPDSACKOfoRecv" },
	{ "TcpExt", "%N DSACKs sent for out of order packets", "TcpExtTCPDSACKOfoSent" },
	{ "TcpExt", "%N DSACKs sent for old packets", "TcpExtTCPDSACKOldSent" },
	{ "TcpExt", "%N DSACKs received", "TcpExtTCPDSACKRecv" },
	{ "TcpExt", "%N congestion windows recovered without slow start by DSACK", "TcpExtTCPDSACKUndo" },
	{ "TcpExt", "%N congestion window recovered using DSACK", "TcpExtTCPDSackUndo" },
	{ "TcpExt", "%N congestion window recovered without slow start using DSACK", "TcpExtTCPDSackUndo" },
	{ "TcpExt", "%N bytes directly in process context from backlog", "TcpExtTCPDirectCopyFromBacklog" },
	{ "TcpExt", "%N of bytes directly received from backlog", "TcpExtTCPDirectCopyFromBacklog" },
	{ "TcpExt", "%N packets directly received from backlog", "TcpExtTCPDirectCopyFromBacklog" },
	{ "TcpExt", "%N bytes directly received in process context from prequeue", "TcpExtTCPDirectCopyFromPrequeue" },
	{ "TcpExt", "%N of bytes directly received from prequeue", "TcpExtTCPDirectCopyFromPrequeue" },
	{ "TcpExt", "%N packets directly received from prequeue", "TcpExtTCPDirectCopyFromPrequeue" },
	{ "TcpExt", "Detected reordering %N times using FACK", "TcpExtTCPFACKReorder" },
	{ "TcpExt", "%N fast retransmits", "TcpExtTCPFastRetrans" },
	{ "TcpExt", "%N forward retransmits", "TcpExtTCPForwardRetrans" },
	{ "TcpExt", "%N congestion windows fully recovered", "TcpExtTCPFullUndo" },
	{ "TcpExt", "%N congestion windows fully recovered without slow start", "TcpExtTCPFullUndo" },
	{ "TcpExt", "%N predicted acknowledgments", "TcpExtTCPHPAcks" },
	{ "TcpExt", "%N packet headers predicted", "TcpExtTCPHPHits" },
	{ "TcpExt", "%N packets header predicted", "TcpExtTCPHPHits" },
	{ "TcpExt", "%N packet headers predicted and directly queued to user", "TcpExtTCPHPHitsToUser" },
	{ "TcpExt", "%N packets header predicted and directly queued to user", "TcpExtTCPHPHitsToUser" },
	{ "TcpExt", "%N TCP data loss events", "TcpExtTCPLoss" },
	{ "TcpExt", "%N timeouts in loss state", "TcpExtTCPLossFailures" },
	{ "TcpExt", "%N congestion windows recovered after partial ack", "TcpExtTCPLossUndo" },
	{ "TcpExt", "%N congestion windows recovered without slow start after partial ack", "TcpExtTCPLossUndo" },
	{ "TcpExt", "%N retransmits lost", "TcpExtTCPLostRetransmits" },
	{ "TcpExt", "TCP ran low on memory %N times", "TcpExtTCPMemoryPressures" },
	{ "TcpExt", "%N congestion windows partially recovered using Hoe heuristic", "TcpExtTCPPartialUndo" },
	{ "TcpExt", "%N packets dropped from prequeue", "TcpExtTCPPrequeueDropped" },
	{ "TcpExt", "%N packets directly queued to recvmsg prequeue", "TcpExtTCPPrequeued" },
	{ "TcpExt", "%N acknowledgments not containing data payload received", "TcpExtTCPPureAcks" },
	{ "TcpExt", "%N acknowledgments not containing data received", "TcpExtTCPPureAcks" },
	{ "TcpExt", "%N packets collapsed in receive queue due to low socket buffer", "TcpExtTCPRcvCollapsed" },
	{ "TcpExt", "%N timeouts after reno fast retransmit", "TcpExtTCPRenoFailures" },
	{ "TcpExt", "%N times recovered from packet loss due to fast retransmit", "TcpExtTCPRenoRecovery" },
	{ "TcpExt", "%N classic Reno fast retransmits failed", "TcpExtTCPRenoRecoveryFail" },
	{ "TcpExt", "%N reno fast retransmits failed", "TcpExtTCPRenoRecoveryFailed" },
	{ "TcpExt", "Detected reordering %N times using reno fast retransmit", "TcpExtTCPRenoReorder" },
	{ "TcpExt", "%N bad SACK blocks received", "TcpExtTCPSACKReneging" },
	{ "TcpExt", "%N bad SACKs received", "TcpExtTCPSACKReneging" },
	{ "TcpExt", "Detected reordering %N times using SACK", "TcpExtTCPSACKReorder" },
	{ "TcpExt", "%N timeouts after SACK recovery", "TcpExtTCPSackFailures" },
	{ "TcpExt", "%N times recovered from packet loss by selective acknowledgements", "TcpExtTCPSackRecovery" },
	{ "TcpExt", "%N times recovered from packet loss due to SACK data", "TcpExtTCPSackRecovery" },
	{ "TcpExt", "%N SACK retransmits failed", "TcpExtTCPSackRecoveryFail" },
	{ "TcpExt", "%N sack retransmits failed", "TcpExtTCPSackRecoveryFail" },
	{ "TcpExt", "%N times receiver scheduled too late for direct processing", "TcpExtTCPSchedulerFailed" },
	{ "TcpExt", "%N retransmits in slow start", "TcpExtTCPSlowStartRetrans" },
	{ "TcpExt", "Detected reordering %N times using time stamp", "TcpExtTCPTSReorder" },
	{ "TcpExt", "%N other TCP timeouts", "TcpExtTCPTimeouts" },
	{ "TcpExt", "%N TCP sockets finished time wait in fast timer", "TcpExtTW" },
	{ "TcpExt", "%N TCP sockets finished time wait in slow timer", "TcpExtTWKilled" },
	{ "TcpExt", "%N time wait sockets recycled by time stamp", "TcpExtTWRecycled" },
	{ "Udp", "%N packets with invalid checksum", "UdpInCsumErrors" },
	{ "Udp", "%N packets received", "UdpInDatagrams" },
	{ "Udp", "%N packet receive errors", "UdpInErrors" },
	{ "Udp", "%N packets to unknown port received", "UdpNoPorts" },
	{ "Udp", "%N packets send", "UdpOutDatagrams" },
	{ "Udp", "%N packets sent", "UdpOutDatagrams" },
	{ "Udp", "%N receive buffer errors", "UdpRcvbufErrors" },
	{ "Udp", "%N send buffer errors", "UdpSndbufErrors" },
	{ "Udp6", "%N packets with invalid checksum", "Udp6InCsumErrors" },
	{ "Udp6", "%N packets received", "Udp6InDatagrams" },
	{ "Udp6", "%N packet receive errors", "Udp6InErrors" },
	{ "Udp6", "%N packets to unknown port received", "Udp6NoPorts" },
	{ "Udp6", "%N packets sent", "Udp6OutDatagrams" },
	{ "Udp6", "%N receive buffer errors", "Udp6RcvbufErrors" },
	{ "Udp6", "%N send buffer errors", "Udp6SndbufErrors" },
};

/* A kernel MIB name: "MemErrors", "InType3", "TCPBacklogDrop". The capital first letter keeps
 * the ICMP histograms' lower-case "redirects: 5" out. */
static bool is_ident(const char *t, size_t tl)
{
	if (!tl || !(t[0] >= 'A' && t[0] <= 'Z'))
		return false;
	for (size_t i = 0; i < tl; i++)
		if (!((t[i] >= 'A' && t[i] <= 'Z') || (t[i] >= 'a' && t[i] <= 'z') ||
		      (t[i] >= '0' && t[i] <= '9') || t[i] == '_'))
			return false;
	return true;
}

static bool is_digits(const char *t, size_t tl)
{
	for (size_t i = 0; i < tl; i++)
		if (t[i] < '0' || t[i] > '9')
			return false;
	return tl > 0;
}

/* The line with blanks collapsed, its first all-digit token replaced by "%N" (*v gets it) and a
 * final '.' dropped. False when it has no such token or does not fit. */
static bool sentence_of(const char *l, size_t ll, char *out, uint64_t *v)
{
	const char *t;
	size_t tl, i = 0, n = 0;
	bool got = false;

	while (np_tok_next(l, ll, &i, &t, &tl)) {
		const char *w = t;
		size_t wl = tl;

		if (!got && is_digits(t, tl)) {
			if (!np_tok_u64(t, tl, v))
				return false;
			got = true;
			w = "%N";
			wl = 2;
		}
		if (n + wl + 1 >= SENTENCE_MAX)
			return false;
		if (n)
			out[n++] = ' ';
		memcpy(out + n, w, wl);
		n += wl;
	}
	while (n && out[n - 1] == '.')
		n--;
	out[n] = '\0';
	return got;
}

static const char *sentence_name(const char *section, const char *text)
{
	for (size_t i = 0; i < sizeof(sentences) / sizeof(sentences[0]); i++)
		if (!strcmp(sentences[i].section, section) && !strcmp(sentences[i].text, text))
			return sentences[i].name;
	return NULL;
}

/* Sections /proc/net/netstat holds (the rest are /proc/net/snmp's or snmp6's). */
static bool is_ext(const char *section)
{
	size_t n = strlen(section);

	return n >= 3 && !strcmp(section + n - 3, "Ext");
}

int np_parse_netstat_s(const char *buf, size_t len, struct np_counters *out, unsigned *sections)
{
	char section[NP_COUNTER_NAME_MAX / 2] = "";
	size_t pos = 0, added = 0;
	const char *l;
	size_t ll;

	*sections = 0;
	while (np_line_next(buf, len, &pos, &l, &ll)) {
		const char *a, *b, *c;
		size_t al, bl, cl, i = 0, extra_i;
		char text[SENTENCE_MAX], key[NP_COUNTER_NAME_MAX];
		const char *name;
		uint64_t v;

		if (!np_tok_next(l, ll, &i, &a, &al))
			continue;
		extra_i = i;
		/* "Udp:" alone on its line opens a section. */
		if (!np_tok_next(l, ll, &extra_i, &b, &bl)) {
			if (al >= 2 && a[al - 1] == ':' && is_ident(a, al - 1) &&
			    al - 1 < sizeof(section)) {
				memcpy(section, a, al - 1);
				section[al - 1] = '\0';
				*sections |= is_ext(section) ? NP_NETSTAT_S_EXT : NP_NETSTAT_S_SNMP;
			}
			continue;
		}
		if (!section[0])
			continue;
		/* "MemErrors: 1945378": exactly two tokens. */
		if (al >= 2 && a[al - 1] == ':' && is_ident(a, al - 1) &&
		    !np_tok_next(l, ll, &extra_i, &c, &cl)) {
			size_t sl = strlen(section), nl = al - 1;

			if (!np_tok_u64(b, bl, &v))
				continue;
			if (nl >= sl && !memcmp(a, section, sl))
				sl = 0;	/* "Udp6MemErrors" under Udp6: already whole */
			if (sl + nl >= sizeof(key))
				continue;
			memcpy(key, section, sl);
			memcpy(key + sl, a, nl);
			key[sl + nl] = '\0';
		} else {
			if (!sentence_of(l, ll, text, &v))
				continue;
			name = sentence_name(section, text);
			if (!name)
				continue;
			snprintf(key, sizeof(key), "%s", name);
		}
		if (np_counters_append(out, key, v))
			return -ENOMEM;
		added++;
	}
	return added ? 0 : -EINVAL;
}
