// Fan table: filter rows live as the visitor types or picks (the same filter as the form's
// query string, which works without JavaScript). Names of all five languages are searched.
(function () {
  "use strict";
  var form = document.querySelector("[data-fan-filter]");
  if (!form) return;
  var rows = Array.prototype.slice.call(document.querySelectorAll("[data-fan-row]"));
  var count = document.querySelector("[data-fan-count]");
  var q = form.querySelector("[name=q]");
  var points = form.querySelector("[name=points]");
  var category = form.querySelector("[name=category]");
  var countTexts = JSON.parse(document.getElementById("fan-count-texts").textContent);

  // The server's folding (rulebook/search_text.py): no accents, no case; data-names is folded.
  function fold(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }
  var empty = document.querySelector("[data-fan-empty]");

  function apply() {
    var needle = fold((q.value || "").trim());
    var p = points ? points.value : "";
    var c = category ? category.value : "";
    var shown = 0;
    rows.forEach(function (row) {
      var ok = (!p || row.dataset.points === p) &&
        (!c || row.dataset.category === c) &&
        (!needle || row.dataset.names.indexOf(needle) !== -1);
      row.hidden = !ok;
      if (ok) shown += 1;
    });
    if (count) count.textContent = countTexts[shown];
    if (empty) empty.hidden = shown !== 0;
    var params = new URLSearchParams();
    if (needle) params.set("q", q.value.trim());
    if (p) params.set("points", p);
    if (c) params.set("category", c);
    var query = params.toString();
    history.replaceState(null, "", location.pathname + (query ? "?" + query : ""));
  }

  form.addEventListener("input", apply);
  form.addEventListener("change", apply);
  form.addEventListener("submit", function (event) { event.preventDefault(); apply(); });
  var print = document.querySelector("[data-print]");
  if (print) print.addEventListener("click", function () { window.print(); });
})();
