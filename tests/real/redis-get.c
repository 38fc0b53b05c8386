// SPDX-License-Identifier: GPL-2.0
/*
 * redis-get: read the keys that "DEBUG POPULATE N key SIZE" made, each at
 * most once, in a random order over the whole dataset, and print the
 * latency of the GETs.
 *
 *   redis-get [-p PORT] [-s SEED] [-n COUNT] N SIZE
 *
 * -n reads COUNT keys drawn at random from all N (default: all N).
 * DEBUG POPULATE names its keys key:0 .. key:N-1 and gives key:i the value
 * "value:i" padded with NUL bytes to SIZE; redis-benchmark names its keys
 * otherwise (key:000000000042), so its GETs would miss.  Each reply is
 * checked: a missing key or a wrong value is an error (exit 1), so the
 * figures are those of reads that hit the dataset.  Output, one line:
 *
 *   gets=N p50_ms=F p90_ms=F p99_ms=F max_ms=F total_s=F
 */
#include <arpa/inet.h>
#include <err.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static char *buf;
static size_t buf_len, buf_pos, buf_cap;

static int fill(int fd)
{
	ssize_t n;

	if (buf_pos == buf_len)
		buf_pos = buf_len = 0;
	if (buf_len == buf_cap)
		errx(1, "reply larger than %zu bytes", buf_cap);
	do {
		n = read(fd, buf + buf_len, buf_cap - buf_len);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		err(1, "read");
	if (n == 0)
		errx(1, "redis closed the connection");
	buf_len += n;
	return 0;
}

/* One RESP bulk-string reply into out (at most cap bytes); its length, -1 for nil. */
static long read_bulk(int fd, char *out, size_t cap)
{
	char *eol;
	long len;
	size_t got = 0;

	while (!(eol = memchr(buf + buf_pos, '\n', buf_len - buf_pos))) {
		memmove(buf, buf + buf_pos, buf_len - buf_pos);
		buf_len -= buf_pos;
		buf_pos = 0;
		fill(fd);
	}
	if (buf[buf_pos] != '$')
		errx(1, "unexpected reply: %.*s", (int)(eol - buf - buf_pos), buf + buf_pos);
	len = strtol(buf + buf_pos + 1, NULL, 10);
	buf_pos = eol - buf + 1;
	if (len < 0)
		return -1;
	while (got < (size_t)len + 2) {
		size_t take;

		if (buf_pos == buf_len)
			fill(fd);
		take = buf_len - buf_pos;
		if (take > (size_t)len + 2 - got)
			take = len + 2 - got;
		if (got < cap)
			memcpy(out + got, buf + buf_pos, take < cap - got ? take : cap - got);
		got += take;
		buf_pos += take;
	}
	return len;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double pct(const double *v, long n, double p)
{
	long i = (long)(p / 100.0 * n);

	return v[i < n ? i : n - 1];
}

static void usage(FILE *out, int status)
{
	fprintf(out, "Usage: redis-get [-p PORT] [-s SEED] [-n COUNT] N SIZE\n"
		"Read COUNT (default N) of key:0 .. key:N-1, made by DEBUG POPULATE N key\n"
		"SIZE, each at most once, in a random order over all N, and print the GET\n"
		"latency percentiles.\n");
	exit(status);
}

int main(int argc, char **argv)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	long n, size, i, len, count = 0;
	unsigned int seed = 1;
	int port = 6379, fd, one = 1, c;
	double *lat, t0, start;
	long *order;
	char cmd[64], want[64], *val;

	while ((c = getopt(argc, argv, "p:s:n:h")) != -1) {
		switch (c) {
		case 'n': count = strtol(optarg, NULL, 10); break;
		case 'p': port = atoi(optarg); break;
		case 's': seed = strtoul(optarg, NULL, 10); break;
		case 'h': usage(stdout, 0); break;
		default: usage(stderr, 2);
		}
	}
	if (argc - optind != 2)
		usage(stderr, 2);
	n = strtol(argv[optind], NULL, 10);
	size = strtol(argv[optind + 1], NULL, 10);
	if (n <= 0 || size <= 0 || size > (1 << 20))
		errx(2, "N and SIZE must be positive (SIZE at most 1 MiB)");
	if (count < 0 || count > n)
		errx(2, "COUNT must be between 1 and N");
	if (!count)
		count = n;

	buf_cap = size + 4096;
	buf = malloc(buf_cap);
	val = malloc(size + 2);
	lat = calloc(n, sizeof(*lat));
	order = calloc(n, sizeof(*order));
	if (!buf || !val || !lat || !order)
		err(1, "malloc");
	for (i = 0; i < n; i++)
		order[i] = i;
	srandom(seed);
	for (i = n - 1; i > 0; i--) {
		long j = random() % (i + 1), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}

	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		err(1, "socket");
	sa.sin_port = htons(port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
		err(1, "connect to 127.0.0.1:%d", port);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));

	start = now_ms();
	for (i = 0; i < count; i++) {
		int clen = snprintf(cmd, sizeof(cmd), "GET key:%ld\r\n", order[i]);
		int wlen = snprintf(want, sizeof(want), "value:%ld", order[i]);

		t0 = now_ms();
		if (write(fd, cmd, clen) != clen)
			err(1, "write");
		len = read_bulk(fd, val, size + 2);
		lat[i] = now_ms() - t0;
		if (len < 0)
			errx(1, "key:%ld is missing (expected DEBUG POPULATE %ld key %ld)",
			     order[i], n, size);
		if (len != size || memcmp(val, want, wlen))
			errx(1, "key:%ld: expected a %ld-byte value starting \"%s\", got %ld bytes \"%.*s\"",
			     order[i], size, want, len, wlen, val);
	}
	qsort(lat, count, sizeof(*lat), cmp_double);
	printf("gets=%ld p50_ms=%.3f p90_ms=%.3f p99_ms=%.3f max_ms=%.3f total_s=%.2f\n",
	       count, pct(lat, count, 50), pct(lat, count, 90), pct(lat, count, 99),
	       lat[count - 1],
	       (now_ms() - start) / 1e3);
	return 0;
}
