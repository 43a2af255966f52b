/* The table's score page on the players' phones (docs/decisions/0710-table-side-entry.md).
 *
 * Without this script the page works: each button is a form that posts and comes back.
 * With it:
 * - a hand typed as tiles (or built from the palette) is scored by the server as it is
 *   typed, with the tournament's rules (table/<token>/score/), and its total fills the
 *   points;
 * - every submit is first kept in the page (localStorage), then sent; a submit that cannot
 *   be sent (no network) stays there, marked "not sent yet", and is sent again until the
 *   server answers. The server applies a submit once: each line has the id its form gave
 *   it, a removal names the line's id, an agreement the sheet it agrees with.
 * Vanilla JS, no build step, no inline script. */
(function () {
  "use strict";
  var root = document.getElementById("table-entry");
  if (!root || !window.fetch || !window.URLSearchParams || !window.FormData) { return; }
  var labels = root.dataset;
  var key = labels.queueKey;
  var pendingBox = document.getElementById("t-pending");
  var sending = false;
  var retryDelay = 1000;
  var retryTimer = null;

  function newId() {
    var bytes = new Uint8Array(12);
    (window.crypto || window.msCrypto).getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  /* --- the queue of submits ------------------------------------------------------------ */

  function load() {
    try { return JSON.parse(window.localStorage.getItem(key) || "[]"); }
    catch (e) { return []; }
  }

  function save(queue) {
    try {
      if (queue.length) { window.localStorage.setItem(key, JSON.stringify(queue)); }
      else { window.localStorage.removeItem(key); }
    } catch (e) { /* private mode: the queue lives as long as the page */ }
    memory = queue;
  }

  var memory = load();

  function queue() {
    var stored = load();
    return stored.length || !memory.length ? stored : memory;
  }

  function showPending(state) {
    var items = queue();
    pendingBox.hidden = !items.length;
    pendingBox.textContent = "";
    if (!items.length) { return; }
    pendingBox.dataset.state = state;
    var head = document.createElement("p");
    head.className = "t-pending-head";
    head.textContent = state === "sending" ? labels.labelSending : labels.labelPending;
    pendingBox.appendChild(head);
    var list = document.createElement("ul");
    items.forEach(function (item) {
      var li = document.createElement("li");
      li.textContent = item.label;
      list.appendChild(li);
    });
    pendingBox.appendChild(list);
  }

  function scheduleRetry() {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(flush, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 15000);
  }

  function flush() {
    var items = queue();
    if (sending || !items.length) { return; }
    sending = true;
    showPending("sending");
    var item = items[0];
    fetch(window.location.pathname, {
      method: "POST", body: item.body, credentials: "same-origin",
      headers: { "X-Requested-With": "fetch",
                 "Content-Type": "application/x-www-form-urlencoded" }
    }).then(function (response) {
      sending = false;
      if (response.status >= 500) { throw new Error(String(response.status)); }
      /* the server answered (applied, or refused with a message for the next load); a
         hand it refused comes back in the form after the reload, as typed */
      if (response.status === 400 && new URLSearchParams(item.body).get("action") === "win") {
        keepRefused(item.body);
      }
      save(queue().filter(function (other) { return other.id !== item.id; }));
      retryDelay = 1000;
      if (queue().length) { flush(); }
      else { window.location.reload(); }
    }).catch(function () {
      sending = false;
      showPending("pending");
      scheduleRetry();
    });
  }

  function describe(form) {
    var button = form.querySelector("button[type=submit], button:not([type])");
    var text = button ? button.textContent.trim() : "";
    var points = form.querySelector("input[name=points]");
    var tiles = form.querySelector("input[name=tiles]");
    var seat = form.querySelector("select[name=seat]");
    var parts = [text];
    if (seat) { parts.push(seat.options[seat.selectedIndex].text); }
    if (tiles && tiles.value) { parts.push(tiles.value); }
    if (points && points.value) { parts.push(points.value); }
    return parts.join(" · ");
  }

  root.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.hasAttribute("data-queue")) { return; }
    event.preventDefault();
    var data = new FormData(form);
    data.delete("_mode");
    var items = queue();
    items.push({ id: newId(), label: describe(form),
                 body: new URLSearchParams(data).toString() });
    save(items);
    /* the next line of this form is another line */
    var lineId = form.querySelector("input[name=line]");
    if (lineId && form.id) { lineId.value = newId(); }
    if (form.id === "add-win" || form.id === "add-penalty") { form.reset(); resetTiles(); }
    showPending("sending");
    flush();
  });

  /* --- a hand the server refused: back in its form until sent again or cleared ------- */

  var refusedKey = key + ":refused";

  function keepRefused(body) {
    try { window.localStorage.setItem(refusedKey, body); } catch (e) { /* private mode */ }
  }

  function forgetRefused() {
    try { window.localStorage.removeItem(refusedKey); } catch (e) { /* private mode */ }
  }

  function restoreRefused(form) {
    var body = null;
    try { body = window.localStorage.getItem(refusedKey); } catch (e) { return; }
    if (!form || !body) { return; }
    var data = new URLSearchParams(body);
    Array.prototype.forEach.call(form.elements, function (field) {
      var name = field.name;
      if (!name || name === "csrfmiddlewaretoken" || name === "action" || name === "line" ||
          name === "_mode") { return; }
      if (field.type === "checkbox") { field.checked = data.has(name); }
      else if (data.has(name)) { field.value = data.get(name); }
    });
    var tilesBox = document.getElementById("t-tiles");
    if (tilesBox && data.get("tiles")) { tilesBox.open = true; }
  }

  var refusedForm = document.getElementById("add-win");
  restoreRefused(refusedForm);
  if (refusedForm) {
    refusedForm.addEventListener("submit", forgetRefused);
    refusedForm.addEventListener("input", function () {
      var typed = refusedForm.querySelector("input[name=tiles]");
      var given = refusedForm.querySelector("input[name=points]");
      if ((!typed || !typed.value) && (!given || !given.value)) { forgetRefused(); }
    });
  }

  window.addEventListener("online", function () { retryDelay = 1000; flush(); });
  showPending("sending");
  flush();

  /* --- a hand as tiles ----------------------------------------------------------------- */

  var winForm = document.getElementById("add-win");
  var input = document.getElementById("t-tiles-input");
  var N = window.TileNotation;
  if (!winForm || !input || !N || !window.TilePalette) { return; }
  var points = winForm.querySelector("input[name=points]");
  var scoreBox = document.getElementById("t-score");
  var builder = document.getElementById("t-builder");
  var built = document.getElementById("t-built");
  var palette = document.getElementById("t-palette");
  var tiles = null;  /* the palette's Undo history (tile_palette.js), wired below */
  var timer = null;
  var pending = null;

  function say(text, kind) {
    scoreBox.textContent = "";
    if (!text) { return; }
    var p = document.createElement("p");
    p.className = kind === "problem" ? "t-problems" : "t-scored";
    p.textContent = text;
    scoreBox.appendChild(p);
  }

  function tileNode(token) { return window.TilePalette.drawing(palette, token, "t-drawn"); }

  function render() {
    var model = N.parse(input.value);
    built.textContent = "";
    if (!model) { return; }
    model.melds.forEach(function (m) {
      var group = document.createElement("span");
      group.className = "t-meld";
      m.tiles.forEach(function (t) { group.appendChild(tileNode(t)); });
      built.appendChild(group);
    });
    model.concealed.concat(model.flowers).forEach(function (t) {
      built.appendChild(tileNode(t));
    });
  }

  function score() {
    var tiles = input.value.replace(/\s+/g, "");
    if (!tiles) {
      points.readOnly = false; say("");
      return;
    }
    var params = new URLSearchParams(new FormData(winForm));
    ["csrfmiddlewaretoken", "_mode", "points", "action", "line"].forEach(function (k) {
      params.delete(k);
    });
    if (pending) { pending.abort(); }
    pending = new AbortController();
    fetch(root.dataset.scoreUrl + "?" + params.toString(), {
      signal: pending.signal, headers: { "X-Requested-With": "fetch" }
    }).then(function (response) { return response.json(); }).then(function (answer) {
      if (answer.ok) {
        points.value = answer.points;
        points.readOnly = true;
        say((answer.points_text || answer.points + " " + labels.labelPoints) + ": " + answer.fans.map(function (f) {
          return f.name + (f.count > 1 ? " ×" + f.count : "");
        }).join(", "), "scored");
      } else {
        points.value = ""; points.readOnly = false;
        var problem = answer.problem || {};
        say(labels.labelRefused + " " + (problem.title || "") +
            (problem.where ? " " + problem.where : ""), "problem");
      }
    }).catch(function (error) {
      if (error.name !== "AbortError") { points.readOnly = false; }
    });
  }

  function schedule(delay) {
    clearTimeout(timer);
    timer = setTimeout(score, delay);
  }

  function setHand(text) {
    input.value = text;
    if (!text && !points.value) { forgetRefused(); }
    render();
    schedule(150);
  }

  function resetTiles() {
    if (!points) { return; }
    tiles.forget();
    points.readOnly = false;
    render();
    say("");
  }

  function mode() {
    var checked = winForm.querySelector('input[name="_mode"]:checked');
    return checked ? checked.value : "tile";
  }

  /* the table's pungs and kongs are recorded as claimed */
  tiles = window.TilePalette.attach({
    palette: palette, builder: builder, input: input, mode: mode,
    claim: function () { return "1"; }, setHand: setHand
  });

  input.addEventListener("input", function () { render(); schedule(350); });
  winForm.addEventListener("change", function (event) {
    if (event.target === input || event.target.name === "_mode" ||
        event.target === points) { return; }
    if (input.value) { schedule(0); }
  });

  builder.hidden = false;
  render();
  if (input.value) { schedule(0); }
})();
