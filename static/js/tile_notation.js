/* The calculator's notation of a hand, read into melds, concealed tiles and flowers, and
 * written back ("[123m,1]456p789s11sEEE f1"): shared by the calculator and the table's
 * score page. Vanilla JS, no build step; defines window.TileNotation. */
(function () {
  "use strict";
  var HONOURS = "ESWNCFP";

  function tokens(text) {
    /* "123m4p EE f1" -> ["1m","2m","3m","4p","E","E","f1"], or null if unreadable */
    var out = [], digits = [], i, ch;
    for (i = 0; i < text.length; i++) {
      ch = text[i];
      if ((ch === "f" || ch === "s") && !digits.length && /[1-4]/.test(text[i + 1] || "")) {
        out.push(ch + text[i + 1]); i++; continue;
      }
      if (/[1-9]/.test(ch)) { digits.push(ch); continue; }
      if (ch === "m" || ch === "p" || ch === "s") {
        if (!digits.length) { return null; }
        digits.forEach(function (d) { out.push(d + ch); }); digits = []; continue;
      }
      if (ch === "z") {
        if (!digits.length) { return null; }
        for (var k = 0; k < digits.length; k++) {
          if (digits[k] > "7") { return null; }
          out.push(HONOURS[+digits[k] - 1]);
        }
        digits = []; continue;
      }
      if (HONOURS.indexOf(ch) >= 0 && !digits.length) { out.push(ch); continue; }
      if (ch === "J" && !digits.length) { out.push("J"); continue; }
      if (/\s/.test(ch)) { continue; }
      return null;
    }
    return digits.length ? null : out;
  }

  function isBonus(t) { return /^[fs][1-4]$/.test(t); }

  function parse(text) {
    var model = { melds: [], concealed: [], flowers: [] };
    var rest = text.replace(/\s+/g, "");
    var m;
    while ((m = /^\[([^\]]*)\]/.exec(rest))) {
      var body = m[1].split(","), ts = tokens(body[0]);
      if (!ts || ts.length < 3 || ts.length > 4) { return null; }
      var claim = body[1] || "", kind;
      if (ts.length === 4) { kind = claim ? "kong" : "ckong"; }
      else if (ts[0] === ts[1]) { kind = "pung"; }
      else { kind = "chow"; }
      model.melds.push({ kind: kind, tiles: ts, claim: claim });
      rest = rest.slice(m[0].length);
    }
    var loose = tokens(rest);
    if (!loose) { return null; }
    loose.forEach(function (t) { (isBonus(t) ? model.flowers : model.concealed).push(t); });
    return model;
  }

  function compact(ts) {
    /* ["1m","2m","3m","E"] -> "123mE" (suit letter after each run, order kept) */
    var out = "", run = "", suit = "";
    ts.forEach(function (t) {
      if (/^[1-9][mps]$/.test(t)) {
        /* a new group when the suit changes or the ranks go down: 789s123s55s */
        if (suit && (suit !== t[1] || t[0] < run[run.length - 1])) { out += run + suit; run = ""; }
        suit = t[1]; run += t[0];
      } else {
        if (run) { out += run + suit; run = ""; suit = ""; }
        out += t;
      }
    });
    return out + (run ? run + suit : "");
  }

  function format(model) {
    var text = "";
    model.melds.forEach(function (m) {
      text += "[" + compact(m.tiles) + (m.claim ? "," + m.claim : "") + "]";
    });
    return text + compact(model.concealed) + model.flowers.join("");
  }

  window.TileNotation = { tokens: tokens, isBonus: isBonus, parse: parse, compact: compact,
                          format: format };
})();
