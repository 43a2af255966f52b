// The totals grid (tournaments/totals_grid.html): Enter moves to the next box like Tab
// (on the last box it saves), and each row shows the sum of its four totals as they are
// typed. Without this script the form is a plain form and the server checks each row.
(function () {
  "use strict";
  var form = document.getElementById("totals-grid");
  if (!form) { return; }
  var inputs = Array.prototype.slice.call(form.querySelectorAll("[data-grid-input]:not([disabled])"));

  function number(text) {
    var value = String(text || "").trim().replace("\u2212", "-");
    if (!/^[+-]?[0-9]+$/.test(value)) { return null; }
    return parseInt(value, 10);
  }

  function refresh(row) {
    var boxes = row.querySelectorAll("[data-grid-input]");
    var out = row.querySelector("[data-grid-sum]");
    var sum = 0;
    var given = 0;
    for (var i = 0; i < boxes.length; i++) {
      var value = number(boxes[i].value);
      if (value !== null) { sum += value; given += 1; }
    }
    if (given === 0) {
      out.textContent = "—";
      out.classList.remove("t-grid-off");
    } else {
      out.textContent = (given === boxes.length && sum === 0) ? "0 ✓" : String(sum);
      out.classList.toggle("t-grid-off", given === boxes.length ? sum !== 0 : false);
    }
  }

  inputs.forEach(function (input, index) {
    input.addEventListener("input", function () {
      refresh(input.closest("[data-grid-row]"));
    });
    input.addEventListener("keydown", function (event) {
      if (event.key !== "Enter" || event.isComposing) { return; }
      var next = inputs[index + 1];
      if (next) {
        event.preventDefault();
        next.focus();
        next.select();
      }
    });
  });
})();
