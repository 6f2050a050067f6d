// SPDX-License-Identifier: GPL-2.0-only
/* netpath path/serve's sockets: addresses, connecting, lines in and out with deadlines, nonces
 * and MACs. The protocol itself: path_proto.h. */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <time.h>
#include <unistd.h>

#include "hmac.h"
#include "path_proto.h"

int np_proto_addr(const char *s, bool numeric, struct sockaddr_storage *ss, socklen_t *len,
		  char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = numeric ? AI_NUMERICHOST : 0 }, *ai = NULL;
	char host[256], port[16];
	const char *colon = strrchr(s, ':');
	int r;

	snprintf(port, sizeof(port), "%d", NP_PATH_PORT);
	if (s[0] == '[') {
		const char *close = strchr(s, ']');

		if (!close || (close[1] && close[1] != ':') || (size_t)(close - s) >= sizeof(host)) {
			snprintf(err, errlen, "invalid address '%.100s'", s);
			return -1;
		}
		snprintf(host, sizeof(host), "%.*s", (int)(close - s - 1), s + 1);
		if (close[1] == ':')
			snprintf(port, sizeof(port), "%.15s", close + 2);
	} else if (colon && strchr(s, ':') == colon) {
		snprintf(host, sizeof(host), "%.*s", (int)(colon - s), s);
		snprintf(port, sizeof(port), "%.15s", colon + 1);
	} else {
		snprintf(host, sizeof(host), "%.255s", s);	/* a name, v4, or v6 alone */
	}
	{
		char *end;
		long p = strtol(port, &end, 10);

		if (!port[0] || *end || p < 1 || p > 65535) {
			snprintf(err, errlen, "invalid port in '%.100s' (1 to 65535)", s);
			return -1;
		}
	}
	r = getaddrinfo(host, port, &hints, &ai);
	if (r != 0 || !ai) {
		snprintf(err, errlen, "%s '%.100s': %s", numeric ? "not a numeric address" :
			 "cannot resolve", host, gai_strerror(r));
		return -1;
	}
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	*len = ai->ai_addrlen;
	freeaddrinfo(ai);
	return 0;
}

void np_proto_addr_str(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN] = "?";

	if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const void *)ss;

		inet_ntop(AF_INET6, &s6->sin6_addr, a, sizeof(a));
		snprintf(buf, len, "[%s]:%u", a, ntohs(s6->sin6_port));
	} else {
		const struct sockaddr_in *s4 = (const void *)ss;

		inet_ntop(AF_INET, &s4->sin_addr, a, sizeof(a));
		snprintf(buf, len, "%s:%u", a, ntohs(s4->sin_port));
	}
}

int np_proto_connect(const struct sockaddr_storage *ss, socklen_t len, int timeout_ms)
{
	struct pollfd p;
	socklen_t el = sizeof(int);
	int fd, e = 0;

	fd = socket(ss->ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (const struct sockaddr *)ss, len) < 0 && errno != EINPROGRESS) {
		e = errno;
		close(fd);
		return -e;
	}
	p = (struct pollfd){ .fd = fd, .events = POLLOUT };
	if (poll(&p, 1, timeout_ms) <= 0) {
		close(fd);
		return -ETIMEDOUT;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &el) < 0 || e) {
		e = e ? e : errno;
		close(fd);
		return -e;
	}
	return fd;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int np_conn_line(struct np_conn *c, char *line, size_t cap, int timeout_ms)
{
	long long end = now_ms() + timeout_ms;

	for (;;) {
		char *nl = memchr(c->buf, '\n', c->n);
		struct pollfd p = { .fd = c->fd, .events = POLLIN };
		long long left;
		ssize_t r;

		if (nl) {
			size_t l = (size_t)(nl - c->buf);

			if (l >= cap) {
				errno = EMSGSIZE;
				return -1;
			}
			memcpy(line, c->buf, l);
			line[l] = '\0';
			if (l && line[l - 1] == '\r')
				line[l - 1] = '\0';
			memmove(c->buf, nl + 1, c->n - l - 1);
			c->n -= l + 1;
			return 1;
		}
		if (c->n == sizeof(c->buf)) {
			errno = EMSGSIZE;
			return -1;
		}
		left = end - now_ms();
		if (left <= 0 || poll(&p, 1, (int)left) == 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		r = recv(c->fd, c->buf + c->n, sizeof(c->buf) - c->n, MSG_DONTWAIT);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			return 0;
		c->n += (size_t)r;
	}
}

int np_proto_send(int fd, const void *buf, size_t len, int timeout_ms)
{
	const char *p = buf;
	long long end = now_ms() + timeout_ms;

	while (len > 0) {
		struct pollfd pf = { .fd = fd, .events = POLLOUT };
		ssize_t r = send(fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		long long left;

		if (r > 0) {
			p += r;
			len -= (size_t)r;
			continue;
		}
		if (r < 0 && errno != EAGAIN && errno != EINTR)
			return -1;
		left = end - now_ms();
		if (left <= 0 || poll(&pf, 1, (int)left) == 0) {
			errno = ETIMEDOUT;
			return -1;
		}
	}
	return 0;
}

int np_proto_sendf(int fd, const char *fmt, ...)
{
	char buf[NP_WIRE_LINE_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(buf) - 1) {
		errno = EMSGSIZE;
		return -1;
	}
	buf[n++] = '\n';
	return np_proto_send(fd, buf, (size_t)n, NP_PROTO_TIMEOUT_MS);
}

int np_proto_random(void *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t r = getrandom((char *)buf + got, len - got, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

void np_hex(const uint8_t *b, size_t n, char *out)
{
	static const char d[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = d[b[i] >> 4];
		out[2 * i + 1] = d[b[i] & 15];
	}
	out[2 * n] = '\0';
}

static int nib(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int np_unhex(const char *s, uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int h = nib(s[2 * i]), l = h < 0 ? -1 : nib(s[2 * i + 1]);

		if (h < 0 || l < 0)
			return -1;
		b[i] = (uint8_t)(h << 4 | l);
	}
	return s[2 * n] == '\0' || s[2 * n] == ' ' ? 0 : -1;
}

void np_proto_mac(const struct np_path_key *k, const char *label, const uint8_t *a,
		  const uint8_t *b, uint8_t out[NP_SHA256_LEN])
{
	const void *parts[3] = { label, a, b };
	size_t lens[3] = { strlen(label) + 1, NP_PROTO_NONCE, NP_PROTO_NONCE };

	np_hmac_sha256_v(k->b, k->len, parts, lens, 3, out);
}
