package pdu

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"

	"github.com/gopcp/gopcp/pcp"
)

// handshakeSides are the four readers of a connection's first PDUs: the
// client reading pmcd's greeting, pmcd its client's CREDS, an agent
// pmcd's CREDS, and pmcd its agent's.
var handshakeSides = []func(ctx context.Context, r *Reader, w *Writer) error{
	func(ctx context.Context, r *Reader, w *Writer) error {
		_, err := clientHandshake(ctx, r, w, FlagAuth|FlagContainer, false, 7)
		return err
	},
	func(ctx context.Context, r *Reader, _ *Writer) error {
		_, err := AcceptClient(ctx, r)
		return err
	},
	func(ctx context.Context, r *Reader, w *Writer) error {
		_, err := agentHandshake(ctx, r, w, FlagAuth, 7)
		return err
	},
	func(ctx context.Context, r *Reader, w *Writer) error {
		_, err := AcceptAgent(ctx, r, w, 7)
		return err
	},
}

// FuzzHandshake gives each side of a handshake any bytes to read (the
// first byte picks the side): it must succeed or fail with a PCP error
// code, never panic, and read nothing past the PDU it takes.
func FuzzHandshake(f *testing.F) {
	greet := Greeting{Info: PMCDInfo(FlagAuth | FlagContainer | FlagCredsReqd)}.Message()
	for side := range handshakeSides {
		for _, m := range []Message{greet, VersionCreds(FlagAuth), &Error{Code: int32(pcp.ErrPermission)},
			&Creds{Creds: []Cred{{Type: 9}}}, &Creds{}} {
			f.Add(append([]byte{byte(side)}, m.Append(nil, 3)...))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		in := bytes.NewReader(data[1:])
		r := NewReader(in, 0)
		r.MaxLen = ClientMaxLen
		err := handshakeSides[int(data[0])%len(handshakeSides)](context.Background(), r, NewWriter(io.Discard))
		var code pcp.Error
		if err != nil && !errors.As(err, &code) {
			t.Fatalf("error %v carries no PCP code", err)
		}
		if err == nil {
			if h, herr := ParseHeader(data[1:]); herr != nil || in.Len() != len(data)-1-int(h.Len) {
				t.Fatalf("succeeded having read %d of %d bytes", len(data)-1-in.Len(), len(data)-1)
			}
		}
	})
}
