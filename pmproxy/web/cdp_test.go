package web

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A minimal client of chromium's DevTools protocol over a websocket (RFC
// 6455: the handshake, masked text frames out, fragments, ping and close
// in), enough to drive one page step by step: navigate, evaluate, wait.

// maxMessage bounds one message read from the browser.
const maxMessage = 64 << 20

type devtools struct {
	conn net.Conn
	r    *bufio.Reader
	id   int
}

// startDevtools runs chromium headless with a debugging port of its own
// choosing and connects to its first page, until the test ends.
func startDevtools(t *testing.T, bin string) *devtools {
	t.Helper()
	dir, tmp := t.TempDir(), chromiumTemp(t)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-extensions", "--disable-background-networking", "--window-size=1280,800",
		"--user-data-dir="+dir, "--remote-debugging-port=0", "about:blank")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	logf, err := os.Create(filepath.Join(dir, "chromium.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		logf.Close()
	})
	// Chromium writes the port it took into DevToolsActivePort.
	var port string
	for i := 0; i < 600 && port == ""; i++ {
		if b, err := os.ReadFile(filepath.Join(dir, "DevToolsActivePort")); err == nil {
			if line, _, _ := strings.Cut(string(b), "\n"); line != "" && strings.Contains(string(b), "\n") {
				port = line
				break
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	if port == "" {
		b, _ := os.ReadFile(filepath.Join(dir, "chromium.log"))
		t.Fatalf("chromium wrote no DevToolsActivePort in a minute:\n%s", tail(string(b), 20))
	}
	hc := &http.Client{Timeout: 30 * time.Second}
	resp, err := hc.Get("http://127.0.0.1:" + port + "/json/list")
	if err != nil {
		t.Fatal(err)
	}
	var targets []struct{ Type, WebSocketDebuggerURL string }
	err = json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&targets)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, tg := range targets {
		if tg.Type == "page" {
			d, err := dialDevtools(tg.WebSocketDebuggerURL)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { d.conn.Close() })
			return d
		}
	}
	t.Fatalf("no page among chromium's targets %+v", targets)
	return nil
}

func dialDevtools(wsURL string) (*devtools, error) {
	u, err := url.Parse(wsURL)
	if err != nil {
		return nil, err
	}
	conn, err := net.DialTimeout("tcp", u.Host, 30*time.Second)
	if err != nil {
		return nil, err
	}
	key := make([]byte, 16)
	rand.Read(key)
	k := base64.StdEncoding.EncodeToString(key)
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"+
		"Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n", u.RequestURI(), u.Host, k)
	r := bufio.NewReader(conn)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		conn.Close()
		return nil, err
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		conn.Close()
		return nil, fmt.Errorf("websocket handshake: %s", resp.Status)
	}
	_ = conn.SetDeadline(time.Time{})
	return &devtools{conn: conn, r: r}, nil
}

// send writes one masked text frame, as a client must.
func (d *devtools) send(payload []byte) error {
	hdr := []byte{0x81}
	switch n := len(payload); {
	case n < 126:
		hdr = append(hdr, 0x80|byte(n))
	case n < 1<<16:
		hdr = append(hdr, 0x80|126, byte(n>>8), byte(n))
	default:
		hdr = append(hdr, 0x80|127)
		hdr = binary.BigEndian.AppendUint64(hdr, uint64(n))
	}
	mask := make([]byte, 4)
	rand.Read(mask)
	hdr = append(hdr, mask...)
	body := make([]byte, len(payload))
	for i, b := range payload {
		body[i] = b ^ mask[i%4]
	}
	_, err := d.conn.Write(append(hdr, body...))
	return err
}

// recv reads one whole message, answering pings on the way.
func (d *devtools) recv() ([]byte, error) {
	var msg []byte
	for {
		var h [2]byte
		if _, err := io.ReadFull(d.r, h[:]); err != nil {
			return nil, err
		}
		fin, op := h[0]&0x80 != 0, h[0]&0x0f
		n := uint64(h[1] & 0x7f)
		switch n {
		case 126:
			var b [2]byte
			if _, err := io.ReadFull(d.r, b[:]); err != nil {
				return nil, err
			}
			n = uint64(binary.BigEndian.Uint16(b[:]))
		case 127:
			var b [8]byte
			if _, err := io.ReadFull(d.r, b[:]); err != nil {
				return nil, err
			}
			n = binary.BigEndian.Uint64(b[:])
		}
		var mask []byte
		if h[1]&0x80 != 0 {
			mask = make([]byte, 4)
			if _, err := io.ReadFull(d.r, mask); err != nil {
				return nil, err
			}
		}
		if n > maxMessage || uint64(len(msg))+n > maxMessage {
			return nil, fmt.Errorf("websocket message over %d bytes", maxMessage)
		}
		p := make([]byte, n)
		if _, err := io.ReadFull(d.r, p); err != nil {
			return nil, err
		}
		if mask != nil {
			for i := range p {
				p[i] ^= mask[i%4]
			}
		}
		switch op {
		case 0x8:
			return nil, errors.New("websocket closed by the browser")
		case 0x9:
			if err := d.pong(p); err != nil {
				return nil, err
			}
			continue
		case 0xa:
			continue
		}
		msg = append(msg, p...)
		if fin {
			return msg, nil
		}
	}
}

func (d *devtools) pong(p []byte) error {
	if len(p) > 125 {
		return errors.New("websocket ping too long")
	}
	mask := make([]byte, 4)
	rand.Read(mask)
	f := append([]byte{0x8a, 0x80 | byte(len(p))}, mask...)
	for i, b := range p {
		f = append(f, b^mask[i%4])
	}
	_, err := d.conn.Write(f)
	return err
}

// call sends a DevTools command and returns its result, skipping the
// events that come before it; timeout bounds the wait.
func (d *devtools) call(method string, params any, timeout time.Duration) (json.RawMessage, error) {
	d.id++
	req, err := json.Marshal(map[string]any{"id": d.id, "method": method, "params": params})
	if err != nil {
		return nil, err
	}
	_ = d.conn.SetDeadline(time.Now().Add(timeout))
	defer d.conn.SetDeadline(time.Time{})
	if err := d.send(req); err != nil {
		return nil, err
	}
	for {
		msg, err := d.recv()
		if err != nil {
			return nil, err
		}
		var ans struct {
			ID     int
			Result json.RawMessage
			Error  *struct{ Message string }
		}
		if err := json.Unmarshal(msg, &ans); err != nil {
			return nil, err
		}
		if ans.ID != d.id {
			continue
		}
		if ans.Error != nil {
			return nil, fmt.Errorf("%s: %s", method, ans.Error.Message)
		}
		return ans.Result, nil
	}
}

// eval evaluates a JavaScript expression in the page (awaiting a promise)
// and decodes its value into v.
func (d *devtools) eval(expr string, v any) error {
	res, err := d.call("Runtime.evaluate", map[string]any{
		"expression": expr, "returnByValue": true, "awaitPromise": true,
	}, time.Minute)
	if err != nil {
		return err
	}
	var out struct {
		Result           struct{ Value json.RawMessage }
		ExceptionDetails *struct {
			Text      string
			Exception struct{ Description string }
		}
	}
	if err := json.Unmarshal(res, &out); err != nil {
		return err
	}
	if e := out.ExceptionDetails; e != nil {
		return fmt.Errorf("%s: %s %s", expr, e.Text, e.Exception.Description)
	}
	if v == nil || len(out.Result.Value) == 0 {
		return nil
	}
	return json.Unmarshal(out.Result.Value, v)
}

// waitFor evaluates expr until it is true, at most tries times with a
// pause between, and fails the test otherwise; what describes the state
// in the failure.
func (d *devtools) waitFor(t *testing.T, expr, what string) {
	t.Helper()
	const tries = 600 // a minute of pauses, plus the evaluations' own time
	for i := 0; i < tries; i++ {
		var ok bool
		if err := d.eval("!!("+expr+")", &ok); err != nil {
			t.Fatal(err)
		}
		if ok {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	var state string
	_ = d.eval(what, &state)
	t.Fatalf("never true: %s\n%s", expr, state)
}
