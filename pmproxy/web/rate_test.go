package web

import (
	"encoding/json"
	"fmt"
	"html"
	"math"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"

	"github.com/gopcp/gopcp/httpd/httpstd"
)

// big is a BigInt argument or result as testdata/run.js passes it.
func big(digits string) map[string]any { return map[string]any{"bigint": digits} }

func sample(t float64, v any) map[string]any { return map[string]any{"t": t, "v": v} }

// pageCases are the web view's computations (static/rate.js) with what
// they must return; testdata/run.js runs them in chromium.
var pageCases = []struct {
	name string
	fn   string
	args []any
	want any
}{
	{"counter first sample", "rateStep", []any{nil, 10.0, 5, true},
		map[string]any{"prev": sample(10, 5), "y": nil}},
	{"counter rate", "rateStep", []any{sample(10, 5), 12.0, 9, true},
		map[string]any{"prev": sample(12, 9), "y": 2.0}},
	{"counter rate over a fraction of a second", "rateStep", []any{sample(100.25, 1000), 100.75, 1100, true},
		map[string]any{"prev": sample(100.75, 1100), "y": 200.0}},
	{"counter same timestamp keeps the earlier sample", "rateStep", []any{sample(10, 5), 10.0, 9, true},
		map[string]any{"prev": sample(10, 5), "y": nil}},
	{"counter older timestamp", "rateStep", []any{sample(10, 5), 9.0, 9, true},
		map[string]any{"prev": sample(10, 5), "y": nil}},
	{"counter went down: no value, start again", "rateStep", []any{sample(10, 9), 11.0, 3, true},
		map[string]any{"prev": sample(11, 3), "y": nil}},
	{"counter unchanged", "rateStep", []any{sample(10, 7), 11.0, 7, true},
		map[string]any{"prev": sample(11, 7), "y": 0.0}},
	{"64-bit counter beyond 2^53 exact", "rateStep",
		[]any{sample(1, big("18446744073709551000")), 3.0, big("18446744073709551610"), true},
		map[string]any{"prev": sample(3, big("18446744073709551610")), "y": 305.0}},
	{"instant as it is", "rateStep", []any{nil, 10.0, 2.5, false},
		map[string]any{"prev": sample(10, 2.5), "y": 2.5}},
	{"instant 64-bit", "rateStep", []any{nil, 10.0, big("9007199254740993"), false},
		map[string]any{"prev": sample(10, big("9007199254740993")), "y": 9007199254740992.0}},
	{"string value", "rateStep", []any{sample(1, 2), 10.0, "abc", true},
		map[string]any{"prev": nil, "y": nil}},
	{"null value", "rateStep", []any{sample(1, 2), 10.0, nil, false},
		map[string]any{"prev": nil, "y": nil}},

	{"parse exact 64-bit", "parseJSON", []any{`{"v":18446744073709551615,"w":1.5,"x":12,"i":null}`},
		map[string]any{"v": big("18446744073709551615"), "w": 1.5, "x": 12.0, "i": nil}},
	{"parse fetch", "parseJSON", []any{`{"timestamp":1795808704.453468802,"values":[{"instances":[{"instance":1,"value":12.58}]}]}`},
		map[string]any{"timestamp": 1795808704.453468802, "values": []any{map[string]any{"instances": []any{map[string]any{"instance": 1.0, "value": 12.58}}}}}},

	{"timestamp of nine digits", "parseJSON", []any{`{"timestamp":1795808704.053468802}`},
		map[string]any{"timestamp": 1795808704.053468802}},
	{"timestamp as PCP's pmproxy writes 5 ns past", "parseJSON", []any{`{"timestamp":100.5}`},
		map[string]any{"timestamp": 100.000000005}},
	{"timestamp as PCP's pmproxy writes 12345678 ns past", "parseJSON", []any{`{"timestamp":1795808704.12345678}`},
		map[string]any{"timestamp": 1795808704.012345678}},
	{"timestamp whole", "parseJSON", []any{`{"timestamp":100}`}, map[string]any{"timestamp": 100.0}},

	{"units of a counter", "rateUnits", []any{"millisec", true}, "millisec / s"},
	{"units of a count", "rateUnits", []any{"none", true}, "count / s"},
	{"units of an instant", "rateUnits", []any{"Kbyte", false}, "Kbyte"},
	{"no units", "rateUnits", []any{"none", false}, ""},

	{"scale from zero", "niceScale", []any{0, 13, 4}, map[string]any{"lo": 0.0, "hi": 15.0, "step": 5.0}},
	{"scale above zero", "niceScale", []any{9.39, 12.67, 4}, map[string]any{"lo": 9.0, "hi": 13.0, "step": 1.0}},
	{"scale near zero starts at zero", "niceScale", []any{2, 97, 4}, map[string]any{"lo": 0.0, "hi": 100.0, "step": 25.0}},
	{"scale flat", "niceScale", []any{5, 5, 4}, map[string]any{"lo": 0.0, "hi": 8.0, "step": 2.0}},
	{"scale zero", "niceScale", []any{0, 0, 4}, map[string]any{"lo": -1.0, "hi": 1.0, "step": 0.5}},
	{"scale negative", "niceScale", []any{-30, -10, 4}, map[string]any{"lo": -30.0, "hi": -10.0, "step": 5.0}},
	{"scale empty", "niceScale", []any{"Infinity", "-Infinity", 4}, map[string]any{"lo": 0.0, "hi": 1.0, "step": 0.25}},

	{"format zero", "formatValue", []any{0}, "0"},
	{"format small", "formatValue", []any{0.5}, "0.5"},
	{"format hundreds", "formatValue", []any{375.9}, "375.9"},
	{"format thousands", "formatValue", []any{1353.2}, "1.353k"},
	{"format millions", "formatValue", []any{16090000}, "16.09M"},
	{"format negative", "formatValue", []any{-2000}, "-2k"},
	{"format null", "formatValue", []any{nil}, ""},
	{"format with more digits", "formatValue", []any{15845000, 5}, "15.845M"},
	{"format with fewer digits keeps the integer", "formatValue", []any{500, 2}, "500"},

	{"tick digits for a narrow axis", "tickDigits", []any{15830000, 15850000, 5000}, 5.0},
	{"tick digits for a wide axis", "tickDigits", []any{0, 3000, 1000}, 3.0},
	{"tick digits for a flat axis", "tickDigits", []any{0, 0, 0}, 3.0},

	{"window shorter than width", "timeWindow", []any{100, 200, 300}, map[string]any{"from": 100.0, "to": 200.0}},
	{"window of width", "timeWindow", []any{100, 1000, 300}, map[string]any{"from": 700.0, "to": 1000.0}},
	{"window of one sample", "timeWindow", []any{5, 5, 300}, map[string]any{"from": 4.0, "to": 5.0}},

	{"unknown context", "contextLost", []any{"unknown context identifier: 99"}, true},
	{"expired context", "contextLost", []any{"expired context identifier: 5"}, true},
	{"other error", "contextLost", []any{"no.such traversal failed - Unknown metric name"}, false},
}

var resultsRE = regexp.MustCompile(`(?s)<pre id="results">(.*?)</pre>`)

// TestPageComputations runs the page's rate, scale and format functions
// in chromium on pageCases.
func TestPageComputations(t *testing.T) {
	bin := needChromium(t)
	var args []map[string]any
	for _, c := range pageCases {
		a := make([]any, len(c.args))
		for i, x := range c.args {
			// JSON has no infinities: the page reads these back.
			if s, ok := x.(string); ok && (s == "Infinity" || s == "-Infinity") && c.fn == "niceScale" {
				x = json.RawMessage(map[string]string{"Infinity": "1e999", "-Infinity": "-1e999"}[s])
			}
			a[i] = x
		}
		args = append(args, map[string]any{"fn": c.fn, "args": a})
	}
	cases, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/", httpstd.Handler(Handler()))
	mux.Handle("/testdata/", http.StripPrefix("/testdata/", http.FileServer(http.Dir("testdata"))))
	mux.HandleFunc("/cases.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(cases)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	var got []struct {
		Got   any    `json:"got"`
		Error string `json:"error"`
	}
	var why string
	for i := 1; i <= attempts; i++ {
		dom, err := chromium(t, bin, srv.URL+"/testdata/rate.html", 5000, "--dump-dom")
		if err != nil {
			why = err.Error()
			continue
		}
		m := resultsRE.FindStringSubmatch(dom)
		if m == nil || m[1] == "" {
			why = "no results in the page:\n" + dom
			continue
		}
		if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &got); err != nil {
			t.Fatalf("results: %v\n%s", err, m[1])
		}
		why = ""
		break
	}
	if why != "" {
		t.Fatal(why)
	}
	if len(got) != len(pageCases) {
		t.Fatalf("%d results for %d cases: %+v", len(got), len(pageCases), got)
	}
	for i, c := range pageCases {
		if got[i].Error != "" {
			t.Errorf("%s: %s%v: %s", c.name, c.fn, c.args, got[i].Error)
			continue
		}
		if !same(got[i].Got, normal(c.want)) {
			t.Errorf("%s: %s%v = %s, want %s", c.name, c.fn, c.args, show(got[i].Got), show(c.want))
		}
	}
}

// normal turns a wanted value into what JSON decoding makes of it.
func normal(x any) any {
	b, err := json.Marshal(x)
	if err != nil {
		panic(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		panic(err)
	}
	return v
}

func show(x any) string {
	b, _ := json.Marshal(x)
	return string(b)
}

// same compares decoded JSON, numbers within a relative 1e-15 (a few
// units in the last place: a timestamp of 1.8e9 s to the microsecond).
func same(a, b any) bool {
	switch a := a.(type) {
	case float64:
		b, ok := b.(float64)
		return ok && (a == b || math.Abs(a-b) <= 1e-15*math.Max(math.Abs(a), math.Abs(b)))
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !same(a[i], b[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k := range a {
			if !same(a[k], b[k]) {
				return false
			}
		}
		return true
	default:
		return fmt.Sprint(a) == fmt.Sprint(b) && (a == nil) == (b == nil)
	}
}
