// Drawing a chart on a canvas: axes, grid, one line per series, gaps
// where a series has no value.
"use strict";

var pcpview = window.pcpview || (window.pcpview = {});

pcpview.palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
  "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"];

// drawChart draws the series that are on (each {key, color, on, points:
// [{t, y}]}, y null for a gap) over the last width seconds, and returns how
// many points of each series it plotted, by key.
pcpview.drawChart = function (canvas, series, width) {
  var ratio = window.devicePixelRatio || 1;
  var cssW = canvas.clientWidth || 600;
  var cssH = canvas.clientHeight || 220;
  if (canvas.width !== Math.round(cssW * ratio) || canvas.height !== Math.round(cssH * ratio)) {
    canvas.width = Math.round(cssW * ratio);
    canvas.height = Math.round(cssH * ratio);
  }
  var g = canvas.getContext("2d");
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.clearRect(0, 0, cssW, cssH);
  g.font = "11px system-ui, sans-serif";

  var oldest = Infinity, newest = -Infinity;
  series.forEach(function (s) {
    if (!s.on) {
      return;
    }
    s.points.forEach(function (p) {
      if (p.y !== null) {
        oldest = Math.min(oldest, p.t);
        newest = Math.max(newest, p.t);
      }
    });
  });
  var plotted = {};
  series.forEach(function (s) { plotted[s.key] = 0; });
  var win = pcpview.timeWindow(oldest, newest, width);
  var left = 52, right = 10, top = 8, bottom = 20;
  var w = cssW - left - right, h = cssH - top - bottom;
  g.strokeStyle = "#c9ced6";
  g.strokeRect(left + 0.5, top + 0.5, w, h);
  if (win === null) {
    g.fillStyle = "#77808b";
    g.textAlign = "center";
    g.fillText("waiting for values", left + w / 2, top + h / 2);
    return plotted;
  }
  var ymin = Infinity, ymax = -Infinity;
  series.forEach(function (s) {
    if (!s.on) {
      return;
    }
    s.points.forEach(function (p) {
      if (p.y !== null && p.t >= win.from) {
        ymin = Math.min(ymin, p.y);
        ymax = Math.max(ymax, p.y);
      }
    });
  });
  var sc = pcpview.niceScale(ymin, ymax, 4);
  var xOf = function (t) { return left + (t - win.from) / (win.to - win.from) * w; };
  var yOf = function (y) { return top + h - (y - sc.lo) / (sc.hi - sc.lo) * h; };

  var digits = pcpview.tickDigits(sc.lo, sc.hi, sc.step);
  g.fillStyle = "#5b6470";
  g.textAlign = "right";
  g.textBaseline = "middle";
  for (var y = sc.lo, i = 0; y <= sc.hi + sc.step / 2 && i < 50; y += sc.step, i++) {
    var py = Math.round(yOf(y)) + 0.5;
    g.strokeStyle = "#eceef1";
    g.beginPath();
    g.moveTo(left + 1, py);
    g.lineTo(left + w, py);
    g.stroke();
    g.fillText(pcpview.formatValue(Math.abs(y) < sc.step / 1e6 ? 0 : y, digits), left - 4, py);
  }
  g.textAlign = "center";
  g.textBaseline = "top";
  var span = win.to - win.from;
  var tstep = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600].find(function (s) {
    return span / s <= 5;
  }) || 3600;
  for (var k = Math.ceil(win.from / tstep), j = 0; k * tstep <= win.to && j < 50; k++, j++) {
    var label = pcpview.formatTime(k * tstep, tstep);
    var lx = Math.min(xOf(k * tstep), cssW - 2 - g.measureText(label).width / 2);
    g.fillText(label, lx, top + h + 4);
  }

  g.save();
  g.beginPath();
  g.rect(left, top, w, h);
  g.clip();
  g.lineWidth = 1.5;
  g.lineJoin = "round";
  series.forEach(function (s) {
    if (!s.on) {
      return;
    }
    g.strokeStyle = s.color;
    g.fillStyle = s.color;
    g.beginPath();
    var drawing = false, count = 0, lone = null;
    s.points.forEach(function (p) {
      if (p.y === null || p.t < win.from) {
        drawing = false;
        return;
      }
      var x = xOf(p.t), yy = yOf(p.y);
      if (drawing) {
        g.lineTo(x, yy);
        lone = null;
      } else {
        g.moveTo(x, yy);
        lone = [x, yy];
      }
      drawing = true;
      count++;
    });
    g.stroke();
    if (count === 1 && lone) {
      g.fillRect(lone[0] - 1.5, lone[1] - 1.5, 3, 3);
    }
    plotted[s.key] = count;
  });
  g.restore();
  return plotted;
};
