package plot

import (
	"bytes"
	"errors"
	"image/png"
	"math"
	"testing"
	"unicode"
)

// TestDraw draws two series and finds each one's colour at its points,
// the axes in black and the title's ink where Text put it.
func TestDraw(t *testing.T) {
	for _, tc := range []struct {
		name       string
		logX, logY bool
		x          []float64
	}{
		{"linear", false, false, []float64{1, 2, 3, 4}},
		{"log-log", true, true, []float64{1, 10, 100, 1000}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Chart{Title: "Fetch rate", XLabel: "clients", YLabel: "fetches/s", LogX: tc.logX, LogY: tc.logY,
				Series: []Series{{"PCP", tc.x, []float64{10, 20, 40, 80}}, {"gopcp", tc.x, []float64{15, 25, 35, 45}}}}
			var buf bytes.Buffer
			if err := c.WritePNG(&buf, 640, 400); err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(&buf)
			if err != nil {
				t.Fatal(err)
			}
			xa := newAxis(1, tc.x[3], tc.logX)
			xa.p0, xa.p1 = left, 640-right
			ya := newAxis(10, 80, tc.logY)
			ya.p0, ya.p1 = 400-bottom, top
			for si, s := range c.Series {
				for i := range s.X {
					x, y := int(xa.pixel(s.X[i])), int(ya.pixel(s.Y[i]))
					r, g, b, _ := img.At(x, y).RGBA()
					want := palette[si]
					if uint8(r>>8) != want.R || uint8(g>>8) != want.G || uint8(b>>8) != want.B {
						t.Errorf("series %s point %d at (%d,%d): colour %d,%d,%d, want %v", s.Name, i, x, y, r>>8, g>>8, b>>8, want)
					}
				}
			}
			if r, _, _, _ := img.At(left, 200).RGBA(); r != 0 {
				t.Errorf("y axis not black")
			}
			ink := 0
			for x := 0; x < 640; x++ {
				for y := 10; y < 24; y++ {
					if r, _, _, _ := img.At(x, y).RGBA(); r == 0 {
						ink++
					}
				}
			}
			if ink == 0 {
				t.Errorf("no title drawn")
			}
		})
	}
}

func TestDrawNoData(t *testing.T) {
	c := Chart{LogY: true, Series: []Series{{"zero", []float64{1}, []float64{0}}}}
	if _, err := c.Draw(640, 400); !errors.Is(err, ErrNoData) {
		t.Errorf("Draw of a log chart with only y=0: %v, want ErrNoData", err)
	}
	c = Chart{Series: []Series{{"uneven", []float64{1, 2}, []float64{1}}}}
	if _, err := c.Draw(640, 400); err == nil {
		t.Errorf("Draw of a series with more x than y values: no error")
	}
}

// TestGlyphs checks every glyph is 7 rows of 5 cells, and that the font
// covers what the charts write: digits, letters and µ upper-cased.
func TestGlyphs(t *testing.T) {
	for r, g := range glyphs {
		for _, row := range g {
			if len([]rune(row)) != 5 {
				t.Errorf("glyph %q: row %q is not 5 cells", r, row)
			}
		}
	}
	for _, r := range "0123456789abcdefghijklmnopqrstuvwxyzµ.,-+=/()%:_'*?" {
		if _, ok := glyphs[unicode.ToUpper(r)]; !ok {
			t.Errorf("no glyph for %q (upper case %q)", r, unicode.ToUpper(r))
		}
	}
}

func TestNumber(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{{0, "0"}, {0.5, "0.5"}, {100, "100"}, {1500, "1.5K"}, {100000, "100K"}, {2e6, "2M"}, {math.Pow(10, 9), "1G"}} {
		if got := Number(tc.v); got != tc.want {
			t.Errorf("Number(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}
