package series

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/gopcp/series/resp"

	"github.com/gopcp/gopcp/internal/testing/redistest"
	"github.com/gopcp/gopcp/internal/testing/seriestest"
	"github.com/gopcp/gopcp/internal/testing/testbed"
)

// TestLoadRedisDown: no server on the port is a clear error wrapping
// ErrRedis, naming what could not be reached.
func TestLoadRedisDown(t *testing.T) {
	redistest.Need(t)
	port, release, err := testbed.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	c := resp.NewPool("127.0.0.1:"+itoa(port), resp.Options{})
	defer c.Close()
	_, err = Load(context.Background(), c, filepath.Join(qaArchives, "20041125"), LoadOptions{})
	if !errors.Is(err, ErrRedis) || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("load with Redis down: %v, want ErrRedis saying connection refused", err)
	}
}

// TestLoadRedisStoppedMidLoadResumes stops Redis (with persistence)
// after a few batches: the load ends with ErrRedis; once Redis is back,
// loading again completes, and what Redis holds equals one clean load:
// every value once, nothing lost.
func TestLoadRedisStoppedMidLoadResumes(t *testing.T) {
	path := filepath.Join(qaArchives, "mirage-3")
	srv := redistest.Start(t, "--appendonly", "yes", "--appendfsync", "always")
	clean := redistest.Start(t)
	opt := LoadOptions{BatchCommands: 256}
	if _, err := Load(context.Background(), client(t, clean), path, opt); err != nil {
		t.Fatal(err)
	}
	c := resp.NewPool(srv.Addr(), resp.Options{})
	defer c.Close()
	stopped := opt
	stopped.afterBatch = func(n int) {
		if n == 5 {
			srv.Stop()
		}
	}
	st, err := Load(context.Background(), c, path, stopped)
	if !errors.Is(err, ErrRedis) {
		t.Fatalf("load across a stopped Redis: %v, want ErrRedis", err)
	}
	t.Logf("first load ended after %d records: %v", st.Records, err)
	srv.Resume()
	st, err = Load(context.Background(), c, path, opt)
	if err != nil {
		t.Fatalf("load resumed: %v", err)
	}
	if st.Refused == 0 {
		t.Errorf("resumed load found none of the first load's values in Redis")
	}
	t.Logf("resumed load: %d values sent, %d already in Redis", st.Values, st.Refused)
	want, got := seriestest.Dump(t, client(t, clean)), seriestest.Dump(t, client(t, srv))
	if len(want) != len(got) {
		t.Errorf("%d keys after the resumed load, %d after one clean load", len(got), len(want))
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("key %s after the resumed load differs from one clean load:\n%s\nclean:\n%s", k, clip(got[k]), clip(v))
			break
		}
	}
}

// TestLoadRedisRestartedMidLoad restarts Redis between batches: the
// client reconnects, the load completes, and nothing is written twice.
func TestLoadRedisRestartedMidLoad(t *testing.T) {
	path := filepath.Join(qaArchives, "20041125")
	srv := redistest.Start(t, "--appendonly", "yes", "--appendfsync", "always")
	clean := redistest.Start(t)
	opt := LoadOptions{BatchCommands: 256}
	if _, err := Load(context.Background(), client(t, clean), path, opt); err != nil {
		t.Fatal(err)
	}
	restarted := opt
	restarted.afterBatch = func(n int) {
		if n == 2 {
			srv.Restart()
		}
	}
	if _, err := Load(context.Background(), client(t, srv), path, restarted); err != nil {
		t.Fatalf("load across a restart: %v", err)
	}
	want, got := seriestest.Dump(t, client(t, clean)), seriestest.Dump(t, client(t, srv))
	for k, v := range want {
		if got[k] != v {
			t.Fatalf("key %s after a restart differs from one clean load:\n%s\nclean:\n%s", k, clip(got[k]), clip(v))
		}
	}
	if len(want) != len(got) {
		t.Errorf("%d keys after the restart, %d after one clean load", len(got), len(want))
	}
}

// TestLoadRedisOutOfMemory: a Redis refusing writes for want of memory
// ends the load with ErrRedis and Redis's own words.
func TestLoadRedisOutOfMemory(t *testing.T) {
	srv := redistest.Start(t, "--maxmemory", "2mb", "--maxmemory-policy", "noeviction")
	_, err := Load(context.Background(), client(t, srv), filepath.Join(qaArchives, "20180102"), LoadOptions{})
	if !errors.Is(err, ErrRedis) || !strings.Contains(err.Error(), "OOM") {
		t.Fatalf("load into a full Redis: %v, want ErrRedis with OOM", err)
	}
	t.Logf("%v", err)
}

// TestLoadTwiceNoDuplicates: loading an archive again adds nothing.
func TestLoadTwiceNoDuplicates(t *testing.T) {
	srv := redistest.Start(t)
	c := client(t, srv)
	path := filepath.Join(qaArchives, "20041125")
	first, err := Load(context.Background(), c, path, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	before := seriestest.Dump(t, c)
	second, err := Load(context.Background(), c, path, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if second.Refused != first.Values {
		t.Errorf("second load: %d of %d values refused as present", second.Refused, first.Values)
	}
	after := seriestest.Dump(t, c)
	for k, v := range before {
		if after[k] != v {
			t.Fatalf("key %s changed by loading again", k)
		}
	}
	if len(after) != len(before) {
		t.Errorf("%d keys after loading again, %d before", len(after), len(before))
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestLoadPathsAgree: the loader's own RESP pipelines and the resp client's
// (used for clusters and clients with credentials) write the same.
func TestLoadPathsAgree(t *testing.T) {
	path := filepath.Join(qaArchives, "omnibus_v3")
	raw, gr := redistest.Start(t), redistest.Start(t)
	if _, err := Load(context.Background(), client(t, raw), path, LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(context.Background(), client(t, gr), path, LoadOptions{viaClient: true}); err != nil {
		t.Fatal(err)
	}
	a, b := seriestest.Dump(t, client(t, raw)), seriestest.Dump(t, client(t, gr))
	if len(a) != len(b) {
		t.Fatalf("%d keys by the RESP pipelines, %d by the resp client", len(a), len(b))
	}
	for k, v := range a {
		if b[k] != v {
			t.Fatalf("key %s differs between the two paths", k)
		}
	}
}
