/* The on-screen tile palette: buttons that each add a tile (data-add="1m", "E", "f1"...) to
 * a hand written in the calculator's notation, as a single tile or as the chow, pung or
 * kong the page's "_mode" radio buttons ask for, with an Undo and a Clear button beside.
 * Shared by the calculator and the table's score page; needs tile_notation.js loaded
 * before it. Vanilla JS, no build step; defines window.TilePalette. */
(function () {
  "use strict";
  var N = window.TileNotation;
  if (!N) { return; }

  function nextTile(t, step) {
    var rank = +t[0] + step;
    return rank >= 1 && rank <= 9 ? rank + t[1] : null;
  }

  /* The hand `text` with the tile `t` added as `kind` ("tile", "chow", "pung", "kong" or
   * "ckong"; a pung or kong claimed as `claim`), or null when no chow starts at `t`. */
  function add(text, t, kind, claim) {
    var model = N.parse(text) || { melds: [], concealed: [], flowers: [] };
    if (N.isBonus(t)) {
      if (model.flowers.indexOf(t) < 0) { model.flowers.push(t); }
    } else if (kind === "tile") {
      model.concealed.push(t);
    } else if (kind === "chow") {
      var a = /^[1-9][mps]$/.test(t) ? nextTile(t, 1) : null;
      var b = a ? nextTile(t, 2) : null;
      if (!b) { return null; }
      model.melds.push({ kind: "chow", tiles: [t, a, b], claim: "" });
    } else if (kind === "pung") {
      model.melds.push({ kind: "pung", tiles: [t, t, t], claim: claim });
    } else if (kind === "kong") {
      model.melds.push({ kind: "kong", tiles: [t, t, t, t], claim: claim });
    } else {
      model.melds.push({ kind: "ckong", tiles: [t, t, t, t], claim: "" });
    }
    return N.format(model);
  }

  /* A tile drawn as the palette draws it (its button's own drawing, copied), in a span of
   * the class `className`; the token itself for a tile the palette does not have. */
  function drawing(palette, token, className) {
    var source = palette.querySelector('[data-add="' + token + '"]');
    var span = document.createElement("span");
    span.className = className;
    if (source) { span.innerHTML = source.innerHTML; } else { span.textContent = token; }
    return span;
  }

  /* The tile's name, as the palette's button says it to a screen reader. */
  function label(palette, token) {
    var source = palette.querySelector('[data-add="' + token + '"]');
    return source ? source.getAttribute("aria-label") : token;
  }

  /* Wire a palette and its builder's Undo and Clear buttons (data-action="undo", "clear")
   * to the hand's text input. options: palette, builder, input (elements); mode() and
   * claim(): how the next tile is added; setHand(text): shows and scores a new hand;
   * refused(button), optional: no chow starts at that button's tile.
   * Returns remember() (keep the hand for Undo before changing it otherwise) and forget()
   * (nothing left to undo). */
  function attach(options) {
    var input = options.input;
    var history_ = [];

    function remember() { history_.push(input.value); }

    options.palette.addEventListener("click", function (event) {
      var button = event.target.closest("[data-add]");
      if (!button) { return; }
      var next = add(input.value, button.dataset.add, options.mode(), options.claim());
      if (next === null) {
        if (options.refused) { options.refused(button); }
        return;
      }
      remember();
      options.setHand(next);
    });

    options.builder.addEventListener("click", function (event) {
      var action = event.target.closest("[data-action]");
      if (!action) { return; }
      if (action.dataset.action === "undo") {
        if (history_.length) { options.setHand(history_.pop()); }
      } else if (action.dataset.action === "clear") {
        remember(); options.setHand("");
      }
    });

    return { remember: remember, forget: function () { history_ = []; } };
  }

  window.TilePalette = { add: add, drawing: drawing, label: label, attach: attach };
})();
