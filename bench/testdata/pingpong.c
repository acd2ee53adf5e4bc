/*
 * pingpong: the kernel's floor for one relayed fetch on this machine.
 *
 * A client process sends a request of REQ bytes over a TCP loopback
 * connection and waits for an answer of ANS bytes, N times. Mode "relay"
 * puts a relay process between the client and an agent process: the
 * relay reads the request, writes it down a pipe to the agent, reads the
 * agent's answer from another pipe and writes it to the client, as pmcd
 * does with a pipe agent. Mode "direct" has the server answer the client
 * itself, as pmcd does with an in-process agent. The relay waits with
 * select(2) before each read ("select", as PCP's pmcd does) or reads
 * blocking ("block").
 *
 * A fourth argument makes the client spin that many microseconds between
 * round trips, as a slower client (a Go one) leaves the server idle.
 *
 * It prints the user+system CPU of the server side (relay + agent, or the
 * direct server) per round trip, and the round trips per second. Nothing
 * in it does any work but the system calls, so the CPU is what the
 * kernel takes to move the bytes and to put the processes to sleep and
 * wake them.
 *
 * Mode "syscall" times system calls alone, in one process: getppid(2)
 * and a read(2) of an empty non-blocking pipe (EAGAIN), the cheapest
 * calls there are, and clock_gettime(2), which the vDSO answers without
 * entering the kernel.
 *
 *   cc -O2 -o /tmp/pingpong bench/testdata/pingpong.c
 *   /tmp/pingpong relay select 200000
 *   /tmp/pingpong syscall - 1000000
 */
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define REQ 92
#define ANS 400

static void die(const char *what) { perror(what); exit(1); }

static void readn(int fd, char *b, int n, int sel) {
	while (n > 0) {
		if (sel) {
			fd_set r;
			FD_ZERO(&r);
			FD_SET(fd, &r);
			if (select(fd + 1, &r, NULL, NULL, NULL) < 0) die("select");
		}
		int k = read(fd, b, n);
		if (k <= 0) exit(0);
		b += k;
		n -= k;
	}
}

static void writen(int fd, const char *b, int n) {
	while (n > 0) {
		int k = write(fd, b, n);
		if (k <= 0) die("write");
		b += k;
		n -= k;
	}
}

/* ns_since is the CPU time the process has used since t0 (read from
 * CLOCK_PROCESS_CPUTIME_ID): on a shared machine the time the process
 * waits for a CPU is not the calls' cost. */
static double ns_since(const struct timespec *t0) {
	struct timespec t1;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	return (t1.tv_sec - t0->tv_sec) * 1e9 + (t1.tv_nsec - t0->tv_nsec);
}

static void time_syscalls(long n) {
	int p[2];
	char b[8];
	struct timespec t0, t;
	if (pipe(p) < 0) die("pipe");
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	for (long i = 0; i < n; i++) syscall(SYS_getppid);
	printf("getppid: %.0f ns\n", ns_since(&t0) / n);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	for (long i = 0; i < n; i++)
		if (read(p[0], b, sizeof b) >= 0) die("read");
	printf("read of an empty pipe: %.0f ns\n", ns_since(&t0) / n);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	for (long i = 0; i < n; i++) clock_gettime(CLOCK_REALTIME, &t);
	printf("clock_gettime: %.0f ns\n", ns_since(&t0) / n);
}

static double cpu_of(pid_t pid) {
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%d/stat", pid);
	FILE *f = fopen(path, "r");
	if (!f) die("stat");
	if (!fgets(buf, sizeof buf, f)) die("stat read");
	fclose(f);
	char *p = strrchr(buf, ')') + 2;
	unsigned long ut = 0, st = 0;
	int field = 3;
	for (char *tok = strtok(p, " "); tok; tok = strtok(NULL, " "), field++) {
		if (field == 14) ut = strtoul(tok, NULL, 10);
		if (field == 15) { st = strtoul(tok, NULL, 10); break; }
	}
	return (double)(ut + st) / sysconf(_SC_CLK_TCK);
}

int main(int argc, char **argv) {
	if (argc < 4) {
		fprintf(stderr, "usage: pingpong relay|direct select|block N [think-us]\n       pingpong syscall - N\n");
		return 2;
	}
	if (strcmp(argv[1], "syscall") == 0) {
		time_syscalls(atol(argv[3]));
		return 0;
	}
	int relay = strcmp(argv[1], "relay") == 0;
	int sel = strcmp(argv[2], "select") == 0;
	long n = atol(argv[3]);
	long think = argc > 4 ? atol(argv[4]) : 0;
	char buf[65536];
	memset(buf, 'x', sizeof buf);

	int l = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t alen = sizeof a;
	if (bind(l, (struct sockaddr *)&a, sizeof a) < 0 || listen(l, 1) < 0) die("listen");
	getsockname(l, (struct sockaddr *)&a, &alen);

	pid_t server = fork();
	if (server == 0) {
		int c = accept(l, NULL, NULL);
		int one = 1;
		setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		if (!relay) {
			for (;;) {
				readn(c, buf, REQ, sel);
				writen(c, buf, ANS);
			}
		}
		int down[2], up[2];
		if (pipe(down) < 0 || pipe(up) < 0) die("pipe");
		if (fork() == 0) {
			close(c);
			for (;;) {
				readn(down[0], buf, REQ, 0);
				writen(up[1], buf, ANS);
			}
		}
		for (;;) {
			readn(c, buf, REQ, sel);
			writen(down[1], buf, REQ);
			readn(up[0], buf, ANS, sel);
			writen(c, buf, ANS);
		}
	}
	int c = socket(AF_INET, SOCK_STREAM, 0);
	if (connect(c, (struct sockaddr *)&a, sizeof a) < 0) die("connect");
	int one = 1;
	setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	for (int i = 0; i < 1000; i++) {
		writen(c, buf, REQ);
		readn(c, buf, ANS, 0);
	}
	usleep(100000);
	/* The server's CPU: the relay and its agent, the children. */
	char cmd[128];
	pid_t kids[2] = {server, 0};
	snprintf(cmd, sizeof cmd, "/proc/%d/task/%d/children", server, server);
	FILE *f = fopen(cmd, "r");
	if (f) {
		int k;
		if (fscanf(f, "%d", &k) == 1) kids[1] = k;
		fclose(f);
	}
	double c0 = cpu_of(server) + (kids[1] ? cpu_of(kids[1]) : 0);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = 0; i < n; i++) {
		writen(c, buf, REQ);
		readn(c, buf, ANS, 0);
		if (think > 0) {
			/* The client's own work between fetches, spinning so that
			 * it does not sleep: the server's CPUs go idle meanwhile,
			 * as they do under a client slower than this one. */
			struct timespec s, e;
			clock_gettime(CLOCK_MONOTONIC, &s);
			do
				clock_gettime(CLOCK_MONOTONIC, &e);
			while ((e.tv_sec - s.tv_sec) * 1000000 + (e.tv_nsec - s.tv_nsec) / 1000 < think);
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double c1 = cpu_of(server) + (kids[1] ? cpu_of(kids[1]) : 0);
	double secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("%s %s: %.0f round trips/s, server side CPU %.1f us per round trip (pids %d %d)\n",
	       argv[1], argv[2], n / secs, (c1 - c0) / n * 1e6, server, kids[1]);
	kill(server, SIGTERM);
	if (kids[1]) kill(kids[1], SIGTERM);
	while (wait(NULL) > 0)
		;
	return 0;
}
