package proc

import (
	"context"
	"encoding/binary"
	"errors"
	"net"
	"sync"
	"syscall"
	"time"

	"github.com/gopcp/gopcp/pcp"
)

// A client that names a container sees only the container's processes:
// PCP's agent asks pmdaroot, the root agent, for the container's cgroup
// over pmdaroot's Unix socket ($PCP_VAR_DIR/pmcd/root.socket), whose
// answer names the cgroup whose processes are listed. The messages are
// pmdaroot's: a 16-byte header (type, length, status, version) and, for
// container questions, a pid, a name length and the name, every number a
// native-endian 32-bit integer. pmdaroot greets each client with an info
// message first.

// The message types and sizes of pmdaroot's protocol used here.
const (
	rootInfo         = 0x9000
	rootCgroupReq    = 0x9005
	rootCgroupAnswer = 0x9006
	rootVersion      = 2
	rootHeaderLen    = 16
	rootInfoLen      = rootHeaderLen + 8
	rootContainerLen = rootHeaderLen + 8 // before the name
	rootMaxName      = 4096              // MAXPATHLEN, the name's room
)

// errNotConnected is what PCP's agent answers a container client when it
// has no connection to pmdaroot (-ENOTCONN).
var errNotConnected = pcp.Error(-int32(syscall.ENOTCONN))

// rootTimeout bounds one question to pmdaroot, which answers from files
// on this host.
const rootTimeout = 5 * time.Second

// rootClient asks pmdaroot for containers' cgroups, connecting when first
// needed and again after a failed exchange.
type rootClient struct {
	path string // the socket; "" for none

	mu   sync.Mutex
	conn net.Conn
}

// cgroupOf is the cgroup pmdaroot names for the container called name:
// its path below the hierarchy's top. pmdaroot's refusals come back as
// its status (PM_ERR_NOCONTAINER for an unknown name); with no pmdaroot
// the answer is -ENOTCONN, as PCP's agent answers.
func (r *rootClient) cgroupOf(ctx context.Context, name string) (string, error) {
	if len(name) >= rootMaxName {
		return "", pcp.Error(-int32(syscall.E2BIG))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.conn == nil {
		if err := r.connect(ctx); err != nil {
			return "", errNotConnected
		}
	}
	deadline := time.Now().Add(rootTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	r.conn.SetDeadline(deadline)
	cgroup, err := r.ask(name)
	var pe pcp.Error
	if err != nil && !errors.As(err, &pe) {
		// The connection is of no more use; the next question makes a
		// new one.
		r.conn.Close()
		r.conn = nil
		return "", errNotConnected
	}
	return cgroup, err
}

// connect dials pmdaroot and reads its greeting.
func (r *rootClient) connect(ctx context.Context) error {
	if r.path == "" {
		return errNotConnected
	}
	d := net.Dialer{Timeout: rootTimeout}
	c, err := d.DialContext(ctx, "unix", r.path)
	if err != nil {
		return err
	}
	c.SetDeadline(time.Now().Add(rootTimeout))
	b := make([]byte, rootInfoLen+1)
	n, err := c.Read(b)
	if err == nil {
		err = decodeRootInfo(b[:n])
	}
	if err != nil {
		c.Close()
		return err
	}
	r.conn = c
	return nil
}

// ask sends one cgroup question and reads the answer: a pcp.Error for
// pmdaroot's refusals, another error when the exchange failed.
func (r *rootClient) ask(name string) (string, error) {
	req := rootInts(make([]byte, 0, rootContainerLen+len(name)),
		rootCgroupReq, int32(rootContainerLen+len(name)), 0, rootVersion, 0, int32(len(name)))
	req = append(req, name...)
	if _, err := r.conn.Write(req); err != nil {
		return "", err
	}
	// pmdaroot sends each answer in one message, read with one call as
	// libpcp_pmda reads it.
	b := make([]byte, rootContainerLen+rootMaxName)
	n, err := r.conn.Read(b)
	if err != nil {
		return "", err
	}
	return decodeRootCgroup(b[:n])
}

// decodeRootInfo checks pmdaroot's greeting as libpcp_pmda does.
func decodeRootInfo(b []byte) error {
	if len(b) != rootInfoLen {
		return errors.New("pmdaroot: greeting of the wrong size")
	}
	h := rootHeader(b)
	switch {
	case h[0] != rootInfo:
		return errors.New("pmdaroot: no greeting")
	case h[3] > rootVersion:
		return errors.New("pmdaroot: newer protocol")
	case h[2] != 0:
		return pcp.Error(h[2])
	case h[1] != rootInfoLen:
		return errors.New("pmdaroot: greeting of the wrong length")
	}
	return nil
}

// decodeRootCgroup reads pmdaroot's answer to a cgroup question, as
// libpcp_pmda's receiving and decoding check it: the cgroup name, or
// pmdaroot's status as a pcp.Error, or an error for a malformed answer.
func decodeRootCgroup(b []byte) (string, error) {
	if len(b) < rootContainerLen {
		return "", errors.New("pmdaroot: answer too short")
	}
	h := rootHeader(b)
	namelen := int32(binary.NativeEndian.Uint32(b[20:]))
	switch {
	case h[0] != rootCgroupAnswer:
		return "", errors.New("pmdaroot: answer of another type")
	case h[3] > rootVersion:
		return "", errors.New("pmdaroot: newer protocol")
	case h[2] != 0:
		return "", pcp.Error(h[2])
	case namelen < 0 || namelen >= rootMaxName || int(namelen) > len(b)-rootContainerLen || h[1] < rootContainerLen+namelen:
		return "", errors.New("pmdaroot: bad name length")
	}
	name := b[rootContainerLen : rootContainerLen+int(namelen)]
	for i, c := range name {
		if c == 0 { // strncpy stops at a NUL
			name = name[:i]
			break
		}
	}
	return string(name), nil
}

// rootInts appends numbers to b as pmdaroot's messages hold them.
func rootInts(b []byte, vals ...int32) []byte {
	for _, v := range vals {
		b = binary.NativeEndian.AppendUint32(b, uint32(v))
	}
	return b
}

// rootHeader is a message's header: type, length, status, version.
func rootHeader(b []byte) (h [4]int32) {
	for i := range h {
		h[i] = int32(binary.NativeEndian.Uint32(b[4*i:]))
	}
	return h
}

// close ends the connection, if any.
func (r *rootClient) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.conn != nil {
		r.conn.Close()
		r.conn = nil
	}
}
