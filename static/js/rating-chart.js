/* The player's rating history: a line with its uncertainty band (rating ± 2 RD), drawn by
   Chart.js (static/vendor/chartjs). The data come from the page (json_script); the table on
   the page holds the same figures for readers without JavaScript or canvas. */
(function () {
  "use strict";
  var dataNode = document.getElementById("rating-chart-data");
  var labelNode = document.getElementById("rating-chart-labels");
  var canvas = document.getElementById("rating-chart");
  if (!dataNode || !labelNode || !canvas || typeof window.Chart === "undefined") return;
  var points = JSON.parse(dataNode.textContent);
  var text = JSON.parse(labelNode.textContent);
  if (!points.length) return;
  var lang = document.documentElement.lang || "en";
  var months = new Intl.DateTimeFormat(lang, { year: "numeric", month: "short", timeZone: "UTC" });
  var numbers = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 });
  var labels = points.map(function (p) {
    var parts = p.period.split("-");
    return months.format(new Date(Date.UTC(+parts[0], +parts[1] - 1, 1)));
  });
  var accent = "#8a1c1c";
  var band = "rgba(138, 28, 28, 0.14)";
  new window.Chart(canvas, {
    type: "line",
    data: {
      labels: labels,
      datasets: [
        { label: text.band, data: points.map(function (p) { return p.high; }),
          borderWidth: 0, pointRadius: 0, pointHitRadius: 0, fill: false, backgroundColor: band },
        { label: text.band, data: points.map(function (p) { return p.low; }),
          borderWidth: 0, pointRadius: 0, pointHitRadius: 0, fill: "-1", backgroundColor: band },
        { label: text.rating, data: points.map(function (p) { return p.rating; }),
          borderColor: accent, backgroundColor: accent, borderWidth: 2, tension: 0,
          pointRadius: points.map(function (p) { return p.games ? 3 : 0; }), fill: false }
      ]
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: "index", intersect: false },
      scales: {
        y: { ticks: { callback: function (v) { return numbers.format(v); } } },
        x: { ticks: { autoSkip: true, maxRotation: 0 } }
      },
      plugins: {
        legend: {
          labels: {
            filter: function (item) { return item.datasetIndex !== 0; },
            boxWidth: 14
          }
        },
        tooltip: {
          filter: function (item) { return item.datasetIndex === 2; },
          callbacks: {
            label: function (ctx) {
              var p = points[ctx.dataIndex];
              var line = text.rating + ": " + numbers.format(p.rating) +
                " (" + numbers.format(p.low) + "–" + numbers.format(p.high) + ")";
              return p.games ? line + ", " + p.games + " " + text.games : line;
            }
          }
        }
      }
    }
  });
})();
