/* drive: starts argv[3...] with pipes as its standard input and output,
 * prints its process id, waits a second, then sends it argv[1] requests
 * of 92 bytes, reading its 400-byte answer to each and then spinning
 * argv[2] microseconds (the answering process idles meanwhile, as a pipe
 * agent does between pmcd's requests). See pipeecho/main.go. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
	if (argc < 4) {
		fprintf(stderr, "usage: drive N think-us program...\n");
		return 2;
	}
	int down[2], up[2];
	if (pipe(down) < 0 || pipe(up) < 0) return 1;
	long n = atol(argv[1]), think = atol(argv[2]);
	pid_t p = fork();
	if (p == 0) {
		dup2(down[0], 0);
		dup2(up[1], 1);
		close(down[1]);
		close(up[0]);
		execv(argv[3], argv + 3);
		_exit(1);
	}
	close(down[0]);
	close(up[1]);
	char b[400] = {0};
	printf("agent %d\n", p);
	fflush(stdout);
	sleep(1);
	for (long i = 0; i < n; i++) {
		if (write(down[1], b, 92) != 92) return 1;
		for (int r = 0; r < 400;) {
			int k = read(up[0], b, 400 - r);
			if (k <= 0) return 1;
			r += k;
		}
		struct timespec s, e;
		clock_gettime(CLOCK_MONOTONIC, &s);
		do
			clock_gettime(CLOCK_MONOTONIC, &e);
		while ((e.tv_sec - s.tv_sec) * 1000000 + (e.tv_nsec - s.tv_nsec) / 1000 < think);
	}
	close(down[1]);
	wait(NULL);
	return 0;
}
