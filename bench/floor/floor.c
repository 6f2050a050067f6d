// SPDX-License-Identifier: GPL-2.0-only
/*
 * The I/O floor of a netpath run: the same system calls, in the same order, with the same
 * paths, sizes and netlink request bytes, and nothing else: no parsing, no judging, no
 * allocation. Its cost is what any program that learns what netpath learns must pay; netpath's
 * cost over it is netpath's own overhead. The operation table comes from an strace log of a
 * real run (bench/floor/record.py), so the floor follows the collectors as they change.
 *
 * Build: cc -O2 -I DIR_WITH_floor_ops.h bench/floor/floor.c -o floor
 *
 * Usage: floor IFACE [PAGES [LOOPS]]. PAGES and LOOPS calibrate the benchmark on the machine it
 * runs on: after the replay, touch PAGES fresh anonymous pages (a page fault each) and spin
 * LOOPS iterations of a dependent add, so that the cost of one page fault and of plain user
 * work can be read beside netpath's own faults and instructions.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/ethtool.h>
#include <linux/netlink.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <unistd.h>

#include <sys/syscall.h>

enum floor_opcode {
	OP_OPEN, OP_READ, OP_PREAD, OP_GETDENTS, OP_CLOSE, OP_STAT, OP_READLINK, OP_ACCESS,
	OP_SOCKET, OP_SETSOCKOPT, OP_BIND, OP_GETSOCKNAME, OP_SEND, OP_RECV, OP_IOCTL, OP_FCNTL,
	OP_WRITE, OP_SYSINFO, OP_LSEEK, OP_GETID,
};

struct floor_op {
	enum floor_opcode op;
	int fd;			/* as recorded; mapped to this process's own fd */
	long a, b, c;
	int ret;		/* the fd an OPEN or SOCKET returned in the recorded run */
	const char *path;
	const char *data;
	unsigned int len;
};

#include "floor_ops.h"

#define NFD 1024
static int fdmap[NFD];

static int fd_of(int recorded)
{
	if (recorded == -100)
		return AT_FDCWD;
	if (recorded >= 0 && recorded < NFD && fdmap[recorded] >= 0)
		return fdmap[recorded];
	return recorded;	/* 0-2, or one the recorded run never opened: the call fails alike */
}

static void remember(int recorded, int fd)
{
	if (recorded >= 0 && recorded < NFD)
		fdmap[recorded] = fd;
}

/* The ifreq of an ethtool ioctl: strace does not show the command inside it, so every
 * SIOCETHTOOL is replayed as ETHTOOL_GDRVINFO, netpath's first and most common one. */
static int replay_ioctl(const struct floor_op *o, const char *ifname)
{
	struct ethtool_drvinfo di = { .cmd = ETHTOOL_GDRVINFO };
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", o->path[0] ? o->path : ifname);
	if (o->a == SIOCETHTOOL)
		ifr.ifr_data = (void *)&di;
	return ioctl(fd_of(o->fd), (unsigned long)o->a, &ifr);
}

static void calibrate(long pages, long loops)
{
	volatile unsigned long acc = 0;

	if (pages > 0) {
		char *m = mmap(NULL, (size_t)pages * 4096, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (m != MAP_FAILED)
			for (long i = 0; i < pages; i++)
				m[i * 4096] = 1;
	}
	for (long i = 0; i < loops; i++)
		acc += (unsigned long)i;
}

int main(int argc, char **argv)
{
	static char buf[1 << 20];
	const char *ifname = argc > 1 ? argv[1] : "lo";
	unsigned int failed = 0;

	for (int i = 0; i < NFD; i++)
		fdmap[i] = -1;
	for (size_t i = 0; i < sizeof(floor_ops) / sizeof(floor_ops[0]); i++) {
		const struct floor_op *o = &floor_ops[i];
		size_t n = (size_t)o->a < sizeof(buf) ? (size_t)o->a : sizeof(buf);
		long r = 0;

		switch (o->op) {
		case OP_OPEN:
			r = openat(fd_of(o->fd), o->path, (int)o->a);
			if (r >= 0)
				remember(o->ret, (int)r);
			break;
		case OP_READ:
			r = read(fd_of(o->fd), buf, n);
			break;
		case OP_PREAD:
			r = pread(fd_of(o->fd), buf, n, o->b);
			break;
		case OP_GETDENTS:
			r = syscall(SYS_getdents64, fd_of(o->fd), buf, n);
			break;
		case OP_CLOSE:
			r = close(fd_of(o->fd));
			if (o->fd >= 0 && o->fd < NFD)
				fdmap[o->fd] = -1;
			break;
		case OP_STAT: {
			struct stat st;
			r = fstatat(fd_of(o->fd), o->path, &st, (int)o->a);
			break;
		}
		case OP_READLINK:
			r = readlinkat(fd_of(o->fd), o->path, buf, n);
			break;
		case OP_ACCESS:
			r = access(o->path, (int)o->a);
			break;
		case OP_SOCKET:
			r = socket((int)o->a, (int)o->b, (int)o->c);
			if (r >= 0)
				remember(o->ret, (int)r);
			break;
		case OP_SETSOCKOPT: {
			/* Netlink's flags take an int 1; SO_RCVTIMEO a timeval (netpath's 2 s). */
			struct timeval tv = { .tv_sec = 2 };
			int one = 1;
			r = setsockopt(fd_of(o->fd), (int)o->a, (int)o->b,
				       o->c == sizeof(tv) ? (void *)&tv : (void *)&one, (socklen_t)o->c);
			break;
		}
		case OP_BIND: {
			struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
			r = bind(fd_of(o->fd), (struct sockaddr *)&sa, sizeof(sa));
			break;
		}
		case OP_GETSOCKNAME: {
			struct sockaddr_nl sa;
			socklen_t len = sizeof(sa);
			r = getsockname(fd_of(o->fd), (struct sockaddr *)&sa, &len);
			break;
		}
		case OP_SEND: {
			struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
			r = sendto(fd_of(o->fd), o->data, o->len, 0, (struct sockaddr *)&sa,
				   sizeof(sa));
			break;
		}
		case OP_RECV:
			/* Non-blocking: a dump is produced inside recvmsg and a reply is queued by
			 * sendto, so nothing is lost; should the kernel's answer be shorter today
			 * than in the recorded run, the floor must not wait for it. */
			r = recv(fd_of(o->fd), buf, n, MSG_DONTWAIT);
			if (r < 0 && errno == EAGAIN)
				r = 0;
			break;
		case OP_IOCTL:
			r = replay_ioctl(o, ifname);
			break;
		case OP_FCNTL:
			r = o->a == 1 ? fcntl(fd_of(o->fd), F_GETFL)
				      : fcntl(fd_of(o->fd), F_SETFD, FD_CLOEXEC);
			break;
		case OP_WRITE:
			memset(buf, ' ', n);
			r = write(fd_of(o->fd), buf, n);
			break;
		case OP_SYSINFO: {
			struct sysinfo si;
			r = sysinfo(&si);
			break;
		}
		case OP_LSEEK:
			r = lseek(fd_of(o->fd), o->a, SEEK_SET);
			break;
		case OP_GETID:	/* geteuid, getuid, getegid, getgid: never fail */
			r = o->a == 0 ? (long)geteuid() : o->a == 1 ? (long)getuid()
				: o->a == 2 ? (long)getegid() : (long)getgid();
			break;
		}
		failed += r < 0;
	}
	/* Failures are part of the replay (netpath probes files that may not exist); their
	 * count goes to stderr so that the benchmark can compare it with the recorded run. */
	fprintf(stderr, "floor: %zu operations, %u failed\n",
		sizeof(floor_ops) / sizeof(floor_ops[0]), failed);
	calibrate(argc > 2 ? atol(argv[2]) : 0, argc > 3 ? atol(argv[3]) : 0);
	return 0;
}
