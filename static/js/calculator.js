/* The hand calculator: palette and notation kept in sync, live answer from the server.
 * Without this script the page still works: the form is a plain GET form and the server
 * renders the answer. Vanilla JS, no build step. */
(function () {
  "use strict";
  var form = document.getElementById("calc-form");
  if (!form || !window.fetch || !window.URLSearchParams || !window.TileNotation ||
      !window.TilePalette) { return; }
  var input = document.getElementById("calc-hand-input");
  var builder = document.getElementById("calc-builder");
  var built = document.getElementById("calc-built");
  var palette = document.getElementById("calc-palette");
  var answer = document.getElementById("calc-answer");
  var labels = builder.dataset;
  var tiles = null;  /* the palette's Undo history (tile_palette.js), wired below */
  var timer = null;
  var pending = null;

  /* --- notation <-> model: tile_notation.js (shared with the table's score page) ------- */

  var N = window.TileNotation;
  var parse = N.parse, format = N.format;

  /* --- drawing (the palette's own tiles are copied: tile_palette.js) ------------------ */

  function tileNode(token) { return window.TilePalette.drawing(palette, token, "drawn"); }

  function labelOf(token) { return window.TilePalette.label(palette, token); }

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

  function remember() { tiles.remember(); }

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

  tiles = window.TilePalette.attach({
    palette: palette, builder: builder, input: input, mode: mode, claim: claim,
    setHand: setHand,
    refused: function (button) {
      button.classList.add("refused");
      setTimeout(function () { button.classList.remove("refused"); }, 400);
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
