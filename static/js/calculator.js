/* The hand calculator: palette and notation kept in sync, live answer from the server.
 * Without this script the page still works: the form is a plain GET form and the server
 * renders the answer. Vanilla JS, no build step. */
(function () {
  "use strict";
  var form = document.getElementById("calc-form");
  if (!form || !window.fetch || !window.URLSearchParams || !window.TileNotation) { return; }
  var input = document.getElementById("calc-hand-input");
  var builder = document.getElementById("calc-builder");
  var built = document.getElementById("calc-built");
  var palette = document.getElementById("calc-palette");
  var answer = document.getElementById("calc-answer");
  var labels = builder.dataset;
  var history_ = [];
  var timer = null;
  var pending = null;

  /* --- notation <-> model: tile_notation.js (shared with the table's score page) ------- */

  var N = window.TileNotation;
  var parse = N.parse, format = N.format, isBonus = N.isBonus;

  /* --- drawing (the palette's own tiles are copied: one drawing of each tile) ---------- */

  function tileNode(token) {
    var source = palette.querySelector('[data-add="' + token + '"]');
    var span = document.createElement("span");
    span.className = "drawn";
    if (source) { span.innerHTML = source.innerHTML; }
    else { span.textContent = token; }
    return span;
  }

  function labelOf(token) {
    var source = palette.querySelector('[data-add="' + token + '"]');
    return source ? source.getAttribute("aria-label") : token;
  }

  function render() {
    var model = parse(input.value);
    built.innerHTML = "";
    builder.classList.toggle("unreadable", !model);
    if (!model) { return; }
    if (!model.melds.length && !model.concealed.length && !model.flowers.length) {
      var p = document.createElement("p");
      p.className = "built-empty"; p.textContent = labels.labelEmpty;
      built.appendChild(p); return;
    }
    model.melds.forEach(function (m, index) {
      var group = document.createElement("button");
      group.type = "button";
      group.className = "built-meld " + m.kind;
      group.setAttribute("aria-label", labels.labelRemove + ": " + m.tiles.map(labelOf).join(", "));
      m.tiles.forEach(function (t) { group.appendChild(tileNode(t)); });
      group.addEventListener("click", function () {
        remember(); model.melds.splice(index, 1); setHand(format(model));
      });
      built.appendChild(group);
    });
    var hand = document.createElement("span");
    hand.className = "built-concealed";
    model.concealed.forEach(function (t, index) {
      var last = index === model.concealed.length - 1;
      var b = document.createElement("button");
      b.type = "button";
      b.className = "built-tile" + (last ? " winning" : "");
      b.setAttribute("aria-label", labelOf(t) + (last ? " (" + labels.labelWinning + ")" : " — " + labels.labelWin));
      if (last) { b.setAttribute("aria-current", "true"); }
      b.appendChild(tileNode(t));
      b.addEventListener("click", function () {
        if (last) { return; }
        remember();
        model.concealed.splice(index, 1); model.concealed.push(t);
        setHand(format(model));
      });
      hand.appendChild(b);
    });
    built.appendChild(hand);
    model.flowers.forEach(function (t, index) {
      var b = document.createElement("button");
      b.type = "button"; b.className = "built-flower";
      b.setAttribute("aria-label", labels.labelRemove + ": " + labelOf(t));
      b.appendChild(tileNode(t));
      b.addEventListener("click", function () {
        remember(); model.flowers.splice(index, 1); setHand(format(model));
      });
      built.appendChild(b);
    });
  }

  function remember() { history_.push(input.value); }

  function setHand(text) {
    input.value = text;
    render();
    schedule(150);
  }

  function mode() {
    var checked = form.querySelector('input[name="_mode"]:checked');
    return checked ? checked.value : "tile";
  }

  function claim() {
    var checked = form.querySelector('input[name="_claim"]:checked');
    return checked ? checked.value : "1";
  }

  function nextTile(t, step) {
    var rank = +t[0] + step;
    return rank >= 1 && rank <= 9 ? rank + t[1] : null;
  }

  palette.addEventListener("click", function (event) {
    var button = event.target.closest("[data-add]");
    if (!button) { return; }
    var t = button.dataset.add;
    var model = parse(input.value) || { melds: [], concealed: [], flowers: [] };
    var kind = mode();
    remember();
    if (isBonus(t)) {
      if (model.flowers.indexOf(t) < 0) { model.flowers.push(t); }
    } else if (kind === "tile") {
      model.concealed.push(t);
    } else if (kind === "chow") {
      var a = /^[1-9][mps]$/.test(t) ? nextTile(t, 1) : null;
      var b = a ? nextTile(t, 2) : null;
      if (!b) { history_.pop(); button.classList.add("refused"); setTimeout(function () { button.classList.remove("refused"); }, 400); return; }
      model.melds.push({ kind: "chow", tiles: [t, a, b], claim: "" });
    } else if (kind === "pung") {
      model.melds.push({ kind: "pung", tiles: [t, t, t], claim: claim() });
    } else if (kind === "kong") {
      model.melds.push({ kind: "kong", tiles: [t, t, t, t], claim: claim() });
    } else {
      model.melds.push({ kind: "ckong", tiles: [t, t, t, t], claim: "" });
    }
    setHand(format(model));
  });

  builder.addEventListener("click", function (event) {
    var action = event.target.closest("[data-action]");
    if (!action) { return; }
    if (action.dataset.action === "undo") {
      if (history_.length) { setHand(history_.pop()); }
    } else if (action.dataset.action === "clear") {
      remember(); setHand("");
    }
  });

  function updateClaimVisibility() {
    var claimSet = document.getElementById("calc-claim");
    var kind = mode();
    claimSet.hidden = !(kind === "pung" || kind === "kong");
  }
  form.querySelectorAll('input[name="_mode"]').forEach(function (r) {
    r.addEventListener("change", updateClaimVisibility);
  });

  /* --- the answer ---------------------------------------------------------------------- */

  function query() {
    var params = new URLSearchParams(new FormData(form));
    params.delete("_mode"); params.delete("_claim");
    return params;
  }

  function schedule(delay) {
    clearTimeout(timer);
    timer = setTimeout(update, delay);
  }

  function setLanguageLinks(canonical) {
    document.querySelectorAll('.language-switcher a, link[rel="alternate"][hreflang]').forEach(function (a) {
      var attr = "href";
      var url = new URL(a.getAttribute(attr), window.location.href);
      url.search = canonical ? "?" + canonical : "";
      a.setAttribute(attr, url.pathname + url.search);
    });
  }

  function update() {
    var params = query();
    params.set("partial", "1");
    if (pending) { pending.abort(); }
    pending = new AbortController();
    answer.setAttribute("aria-busy", "true");
    fetch(form.dataset.partialUrl + "?" + params.toString(), {
      signal: pending.signal, headers: { "X-Requested-With": "fetch" }
    }).then(function (response) {
      if (!response.ok) { throw new Error(response.status); }
      var canonical = response.headers.get("X-Calculator-Query") || "";
      return response.text().then(function (html) {
        answer.innerHTML = html;
        answer.removeAttribute("aria-busy");
        history.replaceState(null, "", window.location.pathname + (canonical ? "?" + canonical : ""));
        setLanguageLinks(canonical);
      });
    }).catch(function (error) {
      if (error.name !== "AbortError") { answer.removeAttribute("aria-busy"); }
    });
  }

  input.addEventListener("input", function () { render(); schedule(350); });
  form.addEventListener("change", function (event) {
    var name = event.target.name;
    if (name === "_mode" || name === "_claim" || event.target === input) { return; }
    if (name === "rules") {
      /* each ruleset has its own conditions: load its form, keeping the hand */
      var params = query(); params.delete("form");
      ["option", "players", "liable"].forEach(function (key) { params.delete(key); });
      window.location.assign(window.location.pathname + "?" + params.toString() + "&form=1");
      return;
    }
    schedule(0);
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    schedule(0);
  });

  /* the floating total is hidden while the answer itself is on the screen */
  if (window.IntersectionObserver) {
    new IntersectionObserver(function (entries) {
      document.body.classList.toggle("answer-in-view", entries[0].isIntersecting);
    }, { rootMargin: "0px 0px -30% 0px" }).observe(answer);
  }

  builder.hidden = false;
  updateClaimVisibility();
  render();
})();
