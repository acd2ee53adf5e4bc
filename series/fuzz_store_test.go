package series

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/gopcp/gopcp/series/resp"
)

// scriptedRedis answers every command with the next reply of a RESP
// stream, decoded by resp's own reader within its bounds; the stream's
// end (or a reply it cannot decode) is a failed connection.
type scriptedRedis struct {
	mu sync.Mutex
	rd *resp.Reader
}

var errScriptEnd = errors.New("script ended")

func (s *scriptedRedis) next() (resp.Value, error) {
	v, err := s.rd.Read()
	if err != nil {
		return resp.Value{}, errScriptEnd
	}
	if e := v.Err(); e != nil {
		return v, e
	}
	return v, nil
}

func (s *scriptedRedis) Do(ctx context.Context, args ...string) (resp.Value, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.next()
}

func (s *scriptedRedis) Pipeline(ctx context.Context, cmds [][]string) ([]resp.Value, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]resp.Value, len(cmds))
	for i := range cmds {
		v, err := s.next()
		if errors.Is(err, errScriptEnd) {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func (s *scriptedRedis) Close() error { return nil }

// FuzzStoreReplies runs the Store's reads against a Redis whose replies
// are fuzzed (any RESP the reader decodes: strings, integers, arrays,
// maps, nils, error replies, in any order), so that every decoding of
// what Redis holds (descriptors, labels, instances, names, stream
// entries and their IDs, values) meets what PCP's schema never put
// there. Each call must return, with an answer or an error, never a
// panic; the script's end fails the calls after it.
func FuzzStoreReplies(f *testing.F) {
	sid := "605fc77742cd0317597291329561ac4e50c0dd12"
	for _, s := range []string{
		// a descriptor hash, then names
		"*12\r\n$4\r\npmid\r\n$6\r\n60.2.0\r\n$5\r\nindom\r\n$4\r\n60.2\r\n$4\r\ntype\r\n$5\r\nfloat\r\n" +
			"$9\r\nsemantics\r\n$7\r\ninstant\r\n$5\r\nunits\r\n$0\r\n\r\n$6\r\nsource\r\n$40\r\n" + sid + "\r\n",
		// stream entries: [[id, [field, value, ...]], ...]
		"*2\r\n*2\r\n$15\r\n1700000000000-0\r\n*2\r\n$40\r\n" + sid + "\r\n$4\r\n0.86\r\n" +
			"*2\r\n$15\r\n1700000060000-5\r\n*2\r\n$40\r\n" + sid + "\r\n$4\r\n0.39\r\n",
		"*3\r\n$40\r\n" + sid + "\r\n$5\r\nbogus\r\n:7\r\n",
		"-ERR wrong kind\r\n*-1\r\n$-1\r\n:0\r\n",
		"%2\r\n+a\r\n:1\r\n+b\r\n_\r\n",
		"*2\r\n$1\r\n0\r\n*1\r\n$26\r\npcp:map:metric.name:kernel\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, script []byte) {
		c := &scriptedRedis{rd: resp.NewReader(bufio.NewReader(bytes.NewReader(script)), resp.Limits{MaxBulk: 1 << 16, MaxElems: 1 << 12})}
		st := NewStore(c)
		ctx := context.Background()
		sids := []string{sid}
		st.Values(ctx, sids, &Window{Samples: 3})
		st.Query(ctx, "kernel.all.load")
		st.Query(ctx, `kernel.all.load{hostname=="web1"}[samples:2]`)
		st.QueryMetadata(ctx, "kernel.*")
		st.Descs(ctx, sids)
		st.LabelSets(ctx, sids)
		st.Instances(ctx, sids)
		st.Metrics(ctx, sids)
		st.Sources(ctx, sids)
		st.SourceNames(ctx, sids)
		st.SeriesLabelsOf(ctx, sids)
		st.LabelValues(ctx, "hostname")
		st.NamesMatching(ctx, "pcp:map:metric.name", "kernel.*")
		st.AllNames(ctx, "pcp:map:metric.name")
		st.HasSearchModule(ctx)
	})
}
