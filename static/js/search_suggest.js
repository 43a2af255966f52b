/* Suggestions as you type in the header's search box (decision 0525).
 *
 * The box is a plain GET form to the search page and works without this script. With it,
 * after two characters and a short pause, the first results of GET /api/v1/search are
 * shown in a listbox under the box (ARIA combobox pattern): arrow keys move through them,
 * Enter opens the chosen one (or submits the form when none is chosen), Escape closes.
 * Each suggestion shows its kind (and ruleset) and its title, as text.
 */
(function () {
  "use strict";
  var form = document.querySelector("form.header-search[data-suggest-url]");
  if (!form || !window.fetch) { return; }
  var input = form.querySelector("input[type=search]");
  var list = form.querySelector(".suggestions");
  var status = form.querySelector("[role=status]");
  var MIN = 2, DELAY = 250, SHOWN = 8;
  var timer = null, active = -1, seq = 0, lastQuery = "";

  input.setAttribute("role", "combobox");
  input.setAttribute("aria-autocomplete", "list");
  input.setAttribute("aria-controls", list.id);
  input.setAttribute("aria-expanded", "false");

  function options() { return list.querySelectorAll("[role=option]"); }

  function close() {
    list.hidden = true;
    list.innerHTML = "";
    active = -1;
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
  }

  function select(index) {
    var items = options();
    if (!items.length) { return; }
    active = (index + items.length) % items.length;
    for (var i = 0; i < items.length; i++) {
      items[i].setAttribute("aria-selected", i === active ? "true" : "false");
    }
    input.setAttribute("aria-activedescendant", items[active].id);
    items[active].scrollIntoView({ block: "nearest" });
  }

  function render(results) {
    list.innerHTML = "";
    active = -1;
    if (!results.length) {
      close();
      status.textContent = form.dataset.suggestNone;
      return;
    }
    results.slice(0, SHOWN).forEach(function (result, i) {
      var li = document.createElement("li");
      li.id = "header-search-option-" + i;
      li.setAttribute("role", "option");
      li.setAttribute("aria-selected", "false");
      var a = document.createElement("a");
      a.href = result.url;
      a.tabIndex = -1;
      var kind = document.createElement("span");
      kind.className = "suggestion-kind";
      kind.textContent = (result.type_label || result.type) +
        (result.ruleset_label ? " · " + result.ruleset_label : "");
      var title = document.createElement("span");
      title.className = "suggestion-title";
      title.textContent = result.title;
      a.appendChild(kind);
      a.appendChild(title);
      li.appendChild(a);
      li.addEventListener("mousedown", function (event) { event.preventDefault(); });
      list.appendChild(li);
    });
    list.hidden = false;
    input.setAttribute("aria-expanded", "true");
    status.textContent = form.dataset.suggestShown;
  }

  function ask() {
    var query = input.value.trim();
    if (query === lastQuery) { return; }
    lastQuery = query;
    if (query.length < MIN) { close(); return; }
    var mine = ++seq;
    var url = form.dataset.suggestUrl + "?" + new URLSearchParams({
      q: query, lang: form.dataset.suggestLang
    }).toString();
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : { results: [] }; })
      .then(function (data) { if (mine === seq) { render(data.results || []); } })
      .catch(function () { if (mine === seq) { close(); } });
  }

  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(ask, DELAY);
  });
  input.addEventListener("keydown", function (event) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (list.hidden) { return; }
      event.preventDefault();
      select(active + (event.key === "ArrowDown" ? 1 : -1));
    } else if (event.key === "Escape") {
      if (!list.hidden) { event.preventDefault(); close(); }
    } else if (event.key === "Enter" && active >= 0) {
      event.preventDefault();
      window.location.href = options()[active].querySelector("a").href;
    }
  });
  input.addEventListener("blur", function () { setTimeout(close, 150); });
  input.addEventListener("focus", function () { lastQuery = ""; });
})();
