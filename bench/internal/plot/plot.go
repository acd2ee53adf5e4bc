// Package plot draws line charts as PNG with the standard library alone:
// axes with ticks and labels, linear or logarithmic scales, one line per
// series and a legend. The bench package's scaling study draws its CSV
// figures with it (docs/bench.md).
package plot

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"strconv"
	"strings"
)

// Series is one line: points (X[i], Y[i]) in order.
type Series struct {
	Name string
	X, Y []float64
}

// Chart is what Draw draws. A logarithmic axis needs positive values.
type Chart struct {
	Title, XLabel, YLabel string
	LogX, LogY            bool
	Series                []Series
}

// Colours of the series in order: blue, red, green, purple.
var palette = []color.RGBA{{31, 119, 180, 255}, {214, 39, 40, 255}, {44, 160, 44, 255}, {148, 103, 189, 255}}

var (
	black = color.RGBA{0, 0, 0, 255}
	grey  = color.RGBA{225, 225, 225, 255}
	white = color.RGBA{255, 255, 255, 255}
)

// Margins around the plotting area, in pixels.
const (
	left, right, top, bottom = 90, 30, 40, 60
)

// ErrNoData is Draw's answer to a chart without a usable point.
var ErrNoData = errors.New("plot: no data to draw")

// axis maps data values to pixels along one direction.
type axis struct {
	log      bool
	lo, hi   float64 // in data units, log10'd when log
	p0, p1   int     // pixels of lo and hi
	ticks    []float64
	tickText []string
}

func (a *axis) pixel(v float64) float64 {
	if a.log {
		v = math.Log10(v)
	}
	return float64(a.p0) + (v-a.lo)/(a.hi-a.lo)*float64(a.p1-a.p0)
}

// newAxis fits lo..hi (data units) and picks ticks: each power of ten on
// a log axis, steps of 1, 2 or 5 times a power of ten on a linear one.
func newAxis(lo, hi float64, log bool) axis {
	a := axis{log: log}
	if log {
		lo, hi = math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
		if hi == lo {
			hi++
		}
		for e := lo; e <= hi; e++ {
			a.ticks = append(a.ticks, math.Pow(10, e))
		}
		a.lo, a.hi = lo, hi
	} else {
		if lo > 0 {
			lo = 0
		}
		if hi == lo {
			hi = lo + 1
		}
		raw := (hi - lo) / 5
		mag := math.Pow(10, math.Floor(math.Log10(raw)))
		step := mag
		for _, m := range []float64{1, 2, 5, 10} {
			if m*mag >= raw {
				step = m * mag
				break
			}
		}
		lo, hi = math.Floor(lo/step)*step, math.Ceil(hi/step)*step
		for v := lo; v <= hi+step/2; v += step {
			a.ticks = append(a.ticks, v)
		}
		a.lo, a.hi = lo, hi
	}
	for _, v := range a.ticks {
		a.tickText = append(a.tickText, Number(v))
	}
	return a
}

// Number writes v briefly for a tick: 1500 as 1.5K, 2e6 as 2M.
func Number(v float64) string {
	abs := math.Abs(v)
	switch {
	case abs >= 1e9:
		return strconv.FormatFloat(v/1e9, 'g', 3, 64) + "G"
	case abs >= 1e6:
		return strconv.FormatFloat(v/1e6, 'g', 3, 64) + "M"
	case abs >= 1e3:
		return strconv.FormatFloat(v/1e3, 'g', 3, 64) + "K"
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// Draw draws the chart at w x h pixels.
func (c Chart) Draw(w, h int) (*image.RGBA, error) {
	xlo, xhi, ylo, yhi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, s := range c.Series {
		if len(s.X) != len(s.Y) {
			return nil, fmt.Errorf("plot: series %q has %d x values and %d y values", s.Name, len(s.X), len(s.Y))
		}
		for i := range s.X {
			if !c.usable(s.X[i], s.Y[i]) {
				continue
			}
			xlo, xhi = math.Min(xlo, s.X[i]), math.Max(xhi, s.X[i])
			ylo, yhi = math.Min(ylo, s.Y[i]), math.Max(yhi, s.Y[i])
		}
	}
	if math.IsInf(xlo, 1) || w < left+right+50 || h < top+bottom+50 {
		return nil, ErrNoData
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	fill(img, img.Bounds(), white)
	xa := newAxis(xlo, xhi, c.LogX)
	xa.p0, xa.p1 = left, w-right
	ya := newAxis(ylo, yhi, c.LogY)
	ya.p0, ya.p1 = h-bottom, top

	for i, v := range xa.ticks {
		x := int(math.Round(xa.pixel(v)))
		vline(img, x, top, h-bottom, grey)
		vline(img, x, h-bottom, h-bottom+5, black)
		s := xa.tickText[i]
		Text(img, x-TextWidth(s, 1)/2, h-bottom+9, s, 1, black)
	}
	for i, v := range ya.ticks {
		y := int(math.Round(ya.pixel(v)))
		hline(img, left, w-right, y, grey)
		hline(img, left-5, left, y, black)
		s := ya.tickText[i]
		Text(img, left-9-TextWidth(s, 1), y-3, s, 1, black)
	}
	hline(img, left, w-right, h-bottom, black)
	vline(img, left, top, h-bottom, black)
	Text(img, (w-TextWidth(c.Title, 2))/2, 10, c.Title, 2, black)
	Text(img, left+(w-left-right-TextWidth(c.XLabel, 1))/2, h-bottom+28, c.XLabel, 1, black)
	VerticalText(img, 12, top+(h-top-bottom+TextWidth(c.YLabel, 1))/2, c.YLabel, 1, black)

	for si, s := range c.Series {
		col := palette[si%len(palette)]
		var px, py float64
		have := false
		for i := range s.X {
			if !c.usable(s.X[i], s.Y[i]) {
				have = false
				continue
			}
			x, y := xa.pixel(s.X[i]), ya.pixel(s.Y[i])
			if have {
				line(img, px, py, x, y, col)
			}
			fill(img, image.Rect(int(x)-3, int(y)-3, int(x)+4, int(y)+4), col)
			px, py, have = x, y, true
		}
		// The legend, top left inside the plotting area.
		ly := top + 8 + 14*si
		fill(img, image.Rect(left+10, ly, left+30, ly+7), col)
		Text(img, left+36, ly, s.Name, 1, black)
	}
	return img, nil
}

func (c Chart) usable(x, y float64) bool {
	if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
		return false
	}
	return (!c.LogX || x > 0) && (!c.LogY || y > 0)
}

// WritePNG draws the chart and encodes it as PNG to out.
func (c Chart) WritePNG(out io.Writer, w, h int) error {
	img, err := c.Draw(w, h)
	if err != nil {
		return err
	}
	return png.Encode(out, img)
}

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.SetRGBA(x, y, c)
		}
	}
}

func hline(img *image.RGBA, x0, x1, y int, c color.RGBA) { fill(img, image.Rect(x0, y, x1+1, y+1), c) }
func vline(img *image.RGBA, x, y0, y1 int, c color.RGBA) { fill(img, image.Rect(x, y0, x+1, y1+1), c) }

// line draws from (x0, y0) to (x1, y1) two pixels wide, one dot per
// pixel of the longer direction.
func line(img *image.RGBA, x0, y0, x1, y1 float64, c color.RGBA) {
	n := int(math.Max(math.Abs(x1-x0), math.Abs(y1-y0))) + 1
	for i := 0; i <= n; i++ {
		f := float64(i) / float64(n)
		x, y := int(math.Round(x0+f*(x1-x0))), int(math.Round(y0+f*(y1-y0)))
		fill(img, image.Rect(x, y, x+2, y+2), c)
	}
}

// TextWidth is the width in pixels of s drawn at scale.
func TextWidth(s string, scale int) int { return len([]rune(s)) * 6 * scale }

// Text draws s upper-cased with its top left corner at (x, y); a
// character the font lacks is drawn as '?'.
func Text(img *image.RGBA, x, y int, s string, scale int, c color.RGBA) {
	for _, r := range strings.ToUpper(s) {
		g, ok := glyphs[r]
		if !ok && r != ' ' {
			g = glyphs['?']
		}
		for row, bits := range g {
			for col, b := range bits {
				if b == '#' {
					fill(img, image.Rect(x+col*scale, y+row*scale, x+(col+1)*scale, y+(row+1)*scale), c)
				}
			}
		}
		x += 6 * scale
	}
}

// VerticalText draws s reading upwards from (x, y), its baseline on the
// right, for a y axis label.
func VerticalText(img *image.RGBA, x, y int, s string, scale int, c color.RGBA) {
	for _, r := range strings.ToUpper(s) {
		g, ok := glyphs[r]
		if !ok && r != ' ' {
			g = glyphs['?']
		}
		for row, bits := range g {
			for col, b := range bits {
				if b == '#' {
					px, py := x+row*scale, y-(col+1)*scale
					fill(img, image.Rect(px, py, px+scale, py+scale), c)
				}
			}
		}
		y -= 6 * scale
	}
}
