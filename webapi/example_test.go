package webapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http/httptest"

	"github.com/gopcp/gopcp/httpd/httpstd"
	"github.com/gopcp/gopcp/pmapi"
	"github.com/gopcp/gopcp/webapi"
)

// pmproxy's REST API over a source of the caller's choosing, here an
// archive, so that the example runs anywhere (a pmproxy opens a host
// context for the hostspec a request names). httpstd serves it through
// net/http, and httptest records the answer.
func Example() {
	s := webapi.New(webapi.Options{Open: func(ctx context.Context, hostspec string) (pmapi.Source, error) {
		return pmapi.NewArchiveContext(ctx, "../pmapi/testdata/archives/pcp-uptime2")
	}})
	defer s.Close()
	h := httpstd.Handler(s)
	for _, url := range []string{
		"/pmapi/metric?names=kernel.all.uptime",
		"/pmapi/fetch?names=kernel.all.load",
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", url, nil))
		body, err := io.ReadAll(rec.Result().Body)
		if err != nil {
			log.Fatal(err)
		}
		// each request without a context number makes a context, whose
		// number is random: left out here (and the keys come out sorted)
		var answer map[string]any
		if err := json.Unmarshal(body, &answer); err != nil {
			log.Fatal(err)
		}
		delete(answer, "context")
		out, _ := json.Marshal(answer)
		fmt.Println(rec.Code, string(out))
	}
	// Output:
	// 200 {"metrics":[{"labels":{"hostname":"localhost.localdomain"},"name":"kernel.all.uptime","pmid":"60.26.0","sem":"instant","series":"99c13a62e27517bd25417dc999fd328eb7ba3f73","text-help":"","text-oneline":"","type":"u32","units":"sec"}]}
	// 200 {"timestamp":1440315763.215861,"values":[{"instances":[{"instance":1,"value":0.86000001},{"instance":5,"value":0.38999999},{"instance":15,"value":0.14}],"name":"kernel.all.load","pmid":"60.2.0"}]}
}
