package main

import (
	"context"
	"fmt"
	"io"

	"github.com/redis/go-redis/v9"
)

func query(ctx context.Context, c redis.UniversalClient, o *options, args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "pmseries: queries are not built yet")
	return 1
}
