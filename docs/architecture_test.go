// Package docs holds the project's documents; its test keeps
// architecture.md's package table true.
package docs

import (
	"bufio"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/gopcp/gopcp/"

// tableRow is one row of the package table: its packages, the gopcp
// packages the imports column names, and its place in the table.
type tableRow struct {
	line     int
	pkgs     []string
	imports  []string
	toCome   bool
	position int
}

var quoted = regexp.MustCompile("`([^`]+)`")

// readTable reads the package table of architecture.md: rows whose
// first column names packages in back quotes.
func readTable(t *testing.T) []tableRow {
	f, err := os.Open("architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []tableRow
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if !strings.HasPrefix(l, "| `") {
			continue
		}
		cols := strings.Split(strings.Trim(l, "| "), "|")
		if len(cols) != 4 {
			t.Fatalf("architecture.md:%d: %d columns, want 4 (package, job, imports, state)", n, len(cols))
		}
		r := tableRow{line: n, toCome: strings.TrimSpace(cols[3]) == "to come", position: len(rows)}
		for _, m := range quoted.FindAllStringSubmatch(cols[0], -1) {
			r.pkgs = append(r.pkgs, m[1])
		}
		for _, m := range quoted.FindAllStringSubmatch(cols[2], -1) {
			r.imports = append(r.imports, m[1])
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// goImports is every package of the module with the module's packages
// its non-test files import, names relative to the module, and the
// packages whose non-test files import the standard testing package.
func goImports(t *testing.T) (pkgs map[string][]string, testOnly map[string]bool) {
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs, testOnly = map[string][]string{}, map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(l)
		name := strings.TrimPrefix(f[0], module)
		if name == "docs" {
			continue
		}
		var imps []string
		for _, imp := range f[1:] {
			if strings.HasPrefix(imp, module) {
				imps = append(imps, strings.TrimPrefix(imp, module))
			}
			if imp == "testing" {
				testOnly[name] = true
			}
		}
		pkgs[name] = imps
	}
	return pkgs, testOnly
}

// TestArchitectureTable checks architecture.md's package table against
// the code: every package of the module has a row; a row's imports
// column names exactly the module's packages its packages import (their
// non-test files, together); as the table is bottom up, a package
// imports only packages of rows above its own; and test helpers
// (packages importing testing outside their tests) live apart from
// production packages, under internal/testing.
func TestArchitectureTable(t *testing.T) {
	rows := readTable(t)
	pkgs, testOnly := goImports(t)
	for p := range testOnly {
		if !strings.HasPrefix(p, "internal/testing/") {
			t.Errorf("%s imports testing outside its tests but is not under internal/testing", p)
		}
	}
	rowOf := map[string]tableRow{}
	for _, r := range rows {
		for _, p := range r.pkgs {
			if o, dup := rowOf[p]; dup {
				t.Errorf("architecture.md:%d: %s already in the row at line %d", r.line, p, o.line)
			}
			rowOf[p] = r
		}
	}
	var missing []string
	for p := range pkgs {
		if _, ok := rowOf[p]; !ok {
			missing = append(missing, p)
		}
	}
	slices.Sort(missing)
	for _, p := range missing {
		t.Errorf("architecture.md: no row for package %s", p)
	}
	for _, r := range rows {
		if r.toCome {
			for _, p := range r.pkgs {
				if _, ok := pkgs[p]; ok {
					t.Errorf("architecture.md:%d: %s exists but its row says \"to come\"", r.line, p)
				}
			}
			continue
		}
		var want []string
		for _, p := range r.pkgs {
			imps, ok := pkgs[p]
			if !ok {
				t.Errorf("architecture.md:%d: no package %s", r.line, p)
				continue
			}
			for _, imp := range imps {
				if !slices.Contains(r.pkgs, imp) && !slices.Contains(want, imp) {
					want = append(want, imp)
				}
				if ir, ok := rowOf[imp]; ok && ir.position > r.position {
					t.Errorf("architecture.md:%d: %s imports %s, whose row (line %d) is below it", r.line, p, imp, ir.line)
				}
			}
		}
		got := slices.Clone(r.imports)
		slices.Sort(got)
		got = slices.Compact(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("architecture.md:%d: %s: imports column names %q; the code imports %q", r.line, strings.Join(r.pkgs, ", "), got, want)
		}
	}
}
