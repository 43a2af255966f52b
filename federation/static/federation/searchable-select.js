// Narrow a <select multiple data-searchable-select> by the text typed in its search box.
(function () {
  function bind(input) {
    var select = document.getElementById(input.getAttribute("data-searchable-select-for"));
    if (!select || input.dataset.bound) return;
    input.dataset.bound = "1";
    input.addEventListener("input", function () {
      var needle = input.value.trim().toLowerCase();
      Array.prototype.forEach.call(select.options, function (option) {
        var match = !needle || option.text.toLowerCase().indexOf(needle) !== -1;
        option.hidden = !(match || option.selected);
      });
    });
  }
  function bindAll() {
    document.querySelectorAll("[data-searchable-select-for]").forEach(bind);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", bindAll);
  else bindAll();
})();
