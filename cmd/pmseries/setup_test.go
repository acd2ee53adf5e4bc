package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/gopcp/internal/testing/pcptest"
	"github.com/gopcp/gopcp/internal/testing/redistest"
)

// setupTalk is the conversation up to the first command after the
// set-up (CLUSTER NODES, INFO SERVER, GET and SET pcp:version:schema,
// FT.CREATE):
// which set-up commands went on which connection, and whether the run
// went on past them.
func setupTalk(tk *talk) []string {
	var out []string
	for _, c := range tk.lines(func(string) bool { return true }) {
		out = append(out, c)
		_, cmd, _ := strings.Cut(c, " ")
		if !strings.HasPrefix(cmd, "CLUSTER NODES") && !strings.HasPrefix(cmd, "INFO SERVER") &&
			!strings.HasPrefix(cmd, "GET pcp:version:schema") && !strings.HasPrefix(cmd, "SET pcp:version:schema") &&
			!strings.HasPrefix(cmd, "FT.CREATE") {
			break
		}
	}
	return out
}

// TestSetupLikePCP: libpcp_web's set-up of its Redis connection
// (CLUSTER NODES on a connection of its own, then INFO SERVER, GET
// pcp:version:schema and, when there is none, SET pcp:version:schema 2),
// each answered as a script says: PCP's pmseries and ours ask the same,
// in the same order on the same connections, print the same and exit
// alike. The GET and SET are scripted in every row, so that no row's
// SET changes what the next finds.
func TestSetupLikePCP(t *testing.T) {
	redistest.Need(t)
	bin := pcptest.NeedTool(t, "pmseries")
	conf := writeConf(t)
	srv := redistest.Start(t)
	nodes := "07c37dfeb235213a872192d90877d0cd55635b91 127.0.0.1:30004@31004 slave e7d1eecce10fd6bb5eb35b9f99a514335d9ba9ca 0 1426238317239 4 connected"
	for _, c := range []struct {
		name   string
		script []scripted
	}{
		{"as Redis answers", nil},
		{"CLUSTER NODES refused", []scripted{{"CLUSTER NODES", "-ERR unknown command 'CLUSTER'\r\n"}}},
		{"CLUSTER NODES status", []scripted{{"CLUSTER NODES", "+OK\r\n"}}},
		{"CLUSTER NODES integer", []scripted{{"CLUSTER NODES", ":5\r\n"}}},
		{"CLUSTER NODES nil", []scripted{{"CLUSTER NODES", "$-1\r\n"}}},
		{"CLUSTER NODES array", []scripted{{"CLUSTER NODES", "*0\r\n"}}},
		{"CLUSTER NODES no line", []scripted{{"CLUSTER NODES", bulk("hello")}}},
		{"CLUSTER NODES short line", []scripted{{"CLUSTER NODES", bulk("a b c\n")}}},
		{"CLUSTER NODES short second line", []scripted{{"CLUSTER NODES", bulk(nodes + "\nx y\n")}}},
		{"INFO SERVER refused", []scripted{{"INFO SERVER", "-ERR nope\r\n"}}},
		{"INFO SERVER status", []scripted{{"INFO SERVER", "+OK\r\n"}}},
		{"INFO SERVER integer", []scripted{{"INFO SERVER", ":5\r\n"}}},
		{"INFO SERVER nil", []scripted{{"INFO SERVER", "$-1\r\n"}}},
		{"INFO SERVER array", []scripted{{"INFO SERVER", "*1\r\n$1\r\na\r\n"}}},
		{"INFO SERVER no version", []scripted{{"INFO SERVER", bulk("# Server\r\nredis_mode:standalone\r\n")}}},
		{"INFO SERVER empty", []scripted{{"INFO SERVER", bulk("")}}},
		{"INFO SERVER version not a number", []scripted{{"INFO SERVER", bulk("# Server\r\nredis_version:abc\r\n")}}},
		{"INFO SERVER version without a dot", []scripted{{"INFO SERVER", bulk("# Server\r\nredis_version:7\r\n")}}},
		{"INFO SERVER version 5", []scripted{{"INFO SERVER", bulk("redis_version:5.0.0\r\n")}}},
		{"INFO SERVER version spaced", []scripted{{"INFO SERVER", bulk("redis_version: 6.2\r\n")}}},
		{"INFO SERVER version mid-line", []scripted{{"INFO SERVER", bulk("xredis_version:4.0\r\n")}}},
		{"INFO SERVER second version line", []scripted{{"INFO SERVER", bulk("redis_version:7.0\nredis_version:4.0\n")}}},
		{"INFO SERVER closed", []scripted{{"INFO SERVER", ""}}},
		{"GET refused", []scripted{{"GET pcp:version:schema", "-ERR nope\r\n"}}},
		{"GET status", []scripted{{"GET pcp:version:schema", "+OK\r\n"}}},
		{"GET integer", []scripted{{"GET pcp:version:schema", ":2\r\n"}}},
		{"GET array", []scripted{{"GET pcp:version:schema", "*0\r\n"}}},
		{"GET version 2", []scripted{{"GET pcp:version:schema", bulk("2")}}},
		{"GET version 0", []scripted{{"GET pcp:version:schema", bulk("0")}}},
		{"GET version 1", []scripted{{"GET pcp:version:schema", bulk("1")}}},
		{"GET version 3x", []scripted{{"GET pcp:version:schema", bulk("3x")}}},
		{"GET version -1", []scripted{{"GET pcp:version:schema", bulk("-1")}}},
		{"GET version spaced", []scripted{{"GET pcp:version:schema", bulk(" 2")}}},
		{"GET version not a number", []scripted{{"GET pcp:version:schema", bulk("abc")}}},
		{"GET closed", []scripted{{"GET pcp:version:schema", ""}}},
		{"SET refused", []scripted{{"SET pcp:version:schema", "-ERR nope\r\n"}}},
		{"SET queued", []scripted{{"SET pcp:version:schema", "+QUEUED\r\n"}}},
		{"SET other status", []scripted{{"SET pcp:version:schema", "+NO\r\n"}}},
		{"SET integer", []scripted{{"SET pcp:version:schema", ":1\r\n"}}},
		{"SET string OK", []scripted{{"SET pcp:version:schema", bulk("OK")}}},
		{"SET closed", []scripted{{"SET pcp:version:schema", ""}}},
	} {
		script := append(c.script, scripted{"GET pcp:version:schema", "$-1\r\n"}, scripted{"SET pcp:version:schema", "+OK\r\n"})
		pcps, ours := throughScript(t, bin, srv.Addr(), conf, script, "kernel.all.load")
		if got, want := ours.outcome(), pcps.outcome(); got != want {
			t.Errorf("%s: ours:\n%s\nPCP's:\n%s", c.name, got, want)
		}
		if wt, gt := setupTalk(pcps.talk), setupTalk(ours.talk); strings.Join(gt, "\n") != strings.Join(wt, "\n") {
			t.Errorf("%s: ours asked %q, PCP's %q", c.name, gt, wt)
		}
	}
}

// TestOldRedisLikePCP: a server older than Redis 5. PCP's pmseries says
// so and then waits for ever; ours says the same and exits 1.
func TestOldRedisLikePCP(t *testing.T) {
	redistest.Need(t)
	bin := pcptest.NeedTool(t, "pmseries")
	conf := writeConf(t)
	srv := redistest.Start(t)
	for _, info := range []string{"# Server\r\nredis_version:4.0.9\r\n", "a\nredis_version:.5\n"} {
		script := []scripted{{"INFO SERVER", bulk(info)}}
		port, _ := scriptedRedis(t, srv.Addr(), script...)
		argv := []string{"-c", conf, "-h", "127.0.0.1", "-p", port, "kernel.all.load"}
		wantOut, wantErr := runPCPUntilErrorLine(t, bin, argv)
		port, ourTalk := scriptedRedis(t, srv.Addr(), script...)
		argv[len(argv)-2] = port
		var out, errOut bytes.Buffer
		code := run(context.Background(), append([]string{"pmseries"}, argv...), &out, &errOut)
		if got, want := outcome(out.Bytes(), errOut.Bytes(), code), outcome(wantOut, wantErr, 1); got != want {
			t.Errorf("INFO %q: ours:\n%s\nPCP's (and exit 1 where it waits):\n%s", info, got, want)
		}
		if asked := ourTalk.lines(func(string) bool { return true }); len(asked) != 2 {
			t.Errorf("INFO %q: ours asked %q, want CLUSTER NODES and INFO SERVER alone", info, asked)
		}
	}
}

// runPCPUntilErrorLine runs PCP's pmseries where it never ends, until it
// has written a line to standard error (a minute at most) and half a
// second more, and kills it; it gives what it wrote.
func runPCPUntilErrorLine(t *testing.T, bin string, argv []string) ([]byte, []byte) {
	t.Helper()
	cmd := exec.Command(bin, argv...)
	var out bytes.Buffer
	cmd.Stdout = &out
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stderr := bufio.NewReader(errPipe)
	line := make(chan string, 1)
	go func() {
		l, _ := stderr.ReadString('\n')
		line <- l
	}()
	var first string
	select {
	case first = <-line:
		time.Sleep(500 * time.Millisecond)
	case <-time.After(time.Minute):
	}
	cmd.Process.Kill()
	rest, _ := io.ReadAll(stderr)
	if first == "" {
		<-line
	}
	if err := cmd.Wait(); err == nil {
		t.Fatalf("PCP's pmseries %v ended", argv)
	}
	if first == "" {
		t.Fatalf("PCP's pmseries %v wrote no line in a minute", argv)
	}
	return out.Bytes(), append([]byte(first), rest...)
}

// TestManyServersNoClusterLikePCP: several servers configured, the
// first answering that it has no cluster support: PCP's pmseries notes
// that it will not go on, asks nothing more and exits 0.
func TestManyServersNoClusterLikePCP(t *testing.T) {
	redistest.Need(t)
	bin := pcptest.NeedTool(t, "pmseries")
	srv := redistest.Start(t)
	for _, who := range []string{"PCP", "ours"} {
		port, tk := scriptedRedis(t, srv.Addr())
		conf := filepath.Join(t.TempDir(), "pmseries.conf")
		if err := writeFile(conf, "[pmseries]\nenabled = true\n[redis]\nservers = 127.0.0.1:"+port+","+srv.Addr()+"\n"); err != nil {
			t.Fatal(err)
		}
		argv := []string{"-c", conf, "kernel.all.load"}
		var got string
		if who == "PCP" {
			o, e, code := runPCPBounded(t, bin, argv)
			got = outcome(o, e, code)
		} else {
			var out, errOut bytes.Buffer
			code := run(context.Background(), append([]string{"pmseries"}, argv...), &out, &errOut)
			got = outcome(out.Bytes(), errOut.Bytes(), code)
		}
		want := "exit 0\nstdout:\nstderr:\n[TIME] pmseries(PID) Error: redisSlotsReconnect: more than one node is configured, but cluster mode is disabled\n"
		if got != want {
			t.Errorf("%s's pmseries:\n%s\nwant:\n%s", who, got, want)
		}
		if asked := tk.lines(func(string) bool { return true }); strings.Join(asked, ",") != "1 CLUSTER NODES" {
			t.Errorf("%s's pmseries asked %q", who, asked)
		}
	}
}
