/* Checker page: the card grid, text fields kept in sync, each follower's hand as buttons,
   inline marks for bad tokens, example links, copy buttons.
   Everything here is an enhancement: without JavaScript the form still submits (GET)
   and the server renders the verdict. */
(function () {
  "use strict";

  // The checker's form (ids f-…) or the matrix's scenario form (ids m-…).
  var form = document.querySelector("form[data-card-entry]");
  if (!form) return;
  var P = form.dataset.cardEntry;
  var T = JSON.parse((document.getElementById("check-i18n") || {}).textContent || "{}");
  function t(key, value) { return (T[key] || key).replace("%s", value === undefined ? "" : value); }
  var decks = parseInt(form.dataset.decks || "2", 10);
  var gridPanel = document.getElementById("grid-panel");
  var grid = document.getElementById("cardgrid");
  var radios = Array.prototype.slice.call(document.querySelectorAll('input[name="grid-target"]'));
  var cells = Array.prototype.slice.call(grid.querySelectorAll("button.cell"));
  var inputs = Array.prototype.slice.call(form.querySelectorAll("input.cards-input"));
  var pickers = Array.prototype.slice.call(form.querySelectorAll(".picker"));

  // ---- notation: the engine's spellings, rendered by the server (vocab.card_notation) ----
  var N = JSON.parse((document.getElementById("card-notation") || {}).textContent || "{}");
  var SUITS = N.suits || {};
  var SYMBOL = N.symbols || {};
  var LETTER = {};
  Object.keys(SYMBOL).forEach(function (letter) { LETTER[SYMBOL[letter]] = letter; });
  var RANKS = N.ranks || {};
  var LABEL = N.labels || {};
  var BIG = (N.big || [])[0], SMALL = (N.small || [])[0];
  function escapeRe(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }
  function alternatives(list) {
    return list.slice().sort(function (a, b) { return b.length - a.length || (a < b ? -1 : 1); })
      .map(escapeRe).join("|");
  }
  function isRed(symbol) { return (N.red || []).indexOf(LETTER[symbol]) >= 0; }
  var JOKERS = (N.big || []).concat(N.small || []);
  var TOKEN = new RegExp("^(" + alternatives(JOKERS) + ")|^(" + alternatives(Object.keys(SUITS)) +
                         ")(" + alternatives(Object.keys(RANKS)) + ")", "i");
  var SYMBOL_START = new RegExp(alternatives(Object.keys(SUITS).concat(JOKERS).filter(function (s) {
    return /[^\x00-\x7f]/.test(s);
  })));
  var SEPARATORS = new RegExp("[\\s" + escapeRe(N.separators || "") + "]+");

  // Split text into tokens; a token that is not a card keeps its raw text (card: null).
  function tokenize(text) {
    var out = [];
    var chunks = text.replace(/\ufe0f/g, "").split(SEPARATORS);
    chunks.forEach(function (chunk) {
      while (chunk.length) {
        var m = TOKEN.exec(chunk);
        if (m) {
          var card;
          if (m[1]) {
            var j = m[1].toUpperCase();
            card = (N.big || []).indexOf(j) >= 0 ? BIG : SMALL;
          } else {
            var r = RANKS[m[3].toUpperCase()];
            card = SYMBOL[SUITS[m[2].toUpperCase()]] + LABEL[r];
          }
          out.push({ raw: m[0], card: card });
          chunk = chunk.slice(m[0].length);
          continue;
        }
        // Symbol tokens run together: the bad one ends where the next symbol starts.
        var rest = chunk.slice(1).search(SYMBOL_START);
        var end = SYMBOL_START.test(chunk) && rest >= 0 ? rest + 1 : chunk.length;
        out.push({ raw: chunk.slice(0, end), card: null });
        chunk = chunk.slice(end);
      }
    });
    return out;
  }
  function goodCards(tokens) { return tokens.filter(function (x) { return x.card; }).map(function (x) { return x.card; }); }
  function badTokens(tokens) { return tokens.filter(function (x) { return !x.card; }).map(function (x) { return x.raw; }); }

  // ---- trumps, from the form's current deal ----
  function deal() {
    var trump = (document.getElementById(P + "-trump") || {}).value || "none";
    var levelEl = document.getElementById(P + "-level");
    var level = levelEl ? RANKS[String(levelEl.value).toUpperCase()] : null;
    return { trump: trump, level: level };
  }
  // ---- the hand's display order per deal, rendered by the server (engine handsort.hand_orders):
  // the deck in order and how many of its first cards are trumps ----
  var ORDERS = JSON.parse((document.getElementById("hand-order") || {}).textContent || "{}");
  var placed = {};
  function placesFor(d) {
    var key = (d.level || "") + "|" + d.trump;
    if (!ORDERS[key]) key = "|" + d.trump;
    if (!placed[key]) {
      var entry = ORDERS[key] || { cards: "", trumps: 0 };
      var at = {};
      goodCards(tokenize(entry.cards)).forEach(function (tok, i) { at[tok] = i; });
      placed[key] = { at: at, trumps: entry.trumps };
    }
    return placed[key];
  }
  function place(p, tok) { return tok in p.at ? p.at[tok] : Infinity; }
  function isTrump(tok, d) { var p = placesFor(d); return place(p, tok) < p.trumps; }
  function sortCards(list) {
    var p = placesFor(deal());
    return list.slice().sort(function (a, b) { return (place(p, a) - place(p, b)) || 0; });
  }
  function countOf(list) {
    var c = {};
    list.forEach(function (x) { c[x] = (c[x] || 0) + 1; });
    return c;
  }

  // ---- state ----
  function fieldTokens(input) { return tokenize(input.value); }
  function seatUsage(exceptSeat) {
    // Physical copies per card: for each seat, the larger of its hand and its play.
    var bySeat = {};
    inputs.forEach(function (inp) {
      var seat = inp.dataset.seat;
      if (seat === exceptSeat) return;
      var c = countOf(goodCards(fieldTokens(inp)));
      bySeat[seat] = bySeat[seat] || {};
      Object.keys(c).forEach(function (k) { bySeat[seat][k] = Math.max(bySeat[seat][k] || 0, c[k]); });
    });
    var used = {};
    Object.keys(bySeat).forEach(function (s) {
      Object.keys(bySeat[s]).forEach(function (k) { used[k] = (used[k] || 0) + bySeat[s][k]; });
    });
    return used;
  }
  function checkedRadio() {
    for (var i = 0; i < radios.length; i++) if (radios[i].checked) return radios[i];
    return radios[0];
  }
  function activeInput() {
    var r = checkedRadio();
    return (r && document.getElementById(r.value)) || inputs[0];
  }
  function setTarget(id) {
    radios.forEach(function (r) { r.checked = r.value === id; });
  }

  function showFieldError(inp, bad) {
    var box = document.getElementById("err-" + inp.id);
    if (!box) return;
    if (bad.length) {
      box.textContent = t("bad").replace("{field}", inp.dataset.label)
        .replace("{tokens}", bad.map(function (b) { return "“" + b + "”"; }).join(" "));
      box.hidden = false;
      inp.setAttribute("aria-invalid", "true");
    } else if (inp.dataset.serverInvalid !== "1") {
      box.hidden = true;
      box.textContent = "";
      inp.removeAttribute("aria-invalid");
    }
  }

  function refresh() {
    var target = activeInput();
    var d = deal();
    var mine = countOf(goodCards(fieldTokens(target)));
    var others = seatUsage(target.dataset.seat);
    cells.forEach(function (cell) {
      var tok = cell.dataset.card;
      var n = mine[tok] || 0;
      var room = decks - (others[tok] || 0);
      var trump = isTrump(tok, d);
      cell.dataset.count = String(n);
      cell.classList.toggle("trump", trump);
      cell.querySelector(".n").textContent = n ? "×" + n : (room <= 0 ? "0" : "");
      cell.disabled = room <= 0 && n === 0;
      cell.setAttribute("aria-label", tok + (trump ? " " + t("trump") : "") + " " + n + "/" + Math.max(room, 0));
    });
    inputs.forEach(function (inp) {
      var tokens = fieldTokens(inp);
      var bad = badTokens(tokens);
      var badge = form.querySelector('[data-count-for="' + inp.id + '"]');
      if (badge) badge.textContent = goodCards(tokens).length ? "(" + goodCards(tokens).length + ")" : "";
      showFieldError(inp, bad);
      inp.classList.toggle("active-target", inp === target);
    });
    radios.forEach(function (r) { r.parentNode.classList.toggle("on", r.checked); });
    pickers.forEach(renderPicker);
  }

  function changed() { form.dispatchEvent(new Event("cards-changed")); }

  // Write cards back into a field, keeping any token that is not a card where the reader can fix it.
  function setField(input, cards, keepBad) {
    var bad = keepBad ? badTokens(fieldTokens(input)) : [];
    input.value = sortCards(cards).concat(bad).join(" ");
    input.dataset.serverInvalid = "";
    refresh();
    changed();
  }

  function bump(cell, delta) {
    if (cell.disabled) return;
    var target = activeInput();
    var cards = goodCards(fieldTokens(target));
    var tok = cell.dataset.card;
    var n = countOf(cards)[tok] || 0;
    var room = decks - (seatUsage(target.dataset.seat)[tok] || 0);
    var next = n + delta;
    if (delta > 0 && next > room) next = 0;      // full: a further tap clears it
    if (next < 0) next = 0;
    cards = cards.filter(function (x) { return x !== tok; });
    for (var i = 0; i < next; i++) cards.push(tok);
    setField(target, cards, true);
  }

  // ---- each follower's hand as buttons: tap to put a card into (or take it out of) the play ----
  function renderPicker(picker) {
    var hand = document.getElementById(picker.dataset.hand);
    var play = document.getElementById(picker.dataset.play);
    var cards = sortCards(goodCards(fieldTokens(hand)));
    var key = cards.join(" ") + "|" + deal().trump + "|" + deal().level;
    if (!cards.length) { picker.hidden = true; picker.dataset.key = ""; return; }
    picker.hidden = false;
    if (picker.dataset.key !== key) {
      picker.dataset.key = key;
      buildPicker(picker, cards);
    }
    var chosen = countOf(goodCards(fieldTokens(play)));
    var seen = {};
    Array.prototype.forEach.call(picker.querySelectorAll("button.pick"), function (b) {
      var tok = b.dataset.card;
      seen[tok] = (seen[tok] || 0) + 1;
      b.setAttribute("aria-pressed", seen[tok] <= (chosen[tok] || 0) ? "true" : "false");
    });
  }
  function buildPicker(picker, cards) {
    var d = deal();
    var groups = [];
    var byName = {};
    cards.forEach(function (tok) {
      var name = isTrump(tok, d) ? "trump" : tok[0];
      if (!byName[name]) { byName[name] = []; groups.push(name); }
      byName[name].push(tok);
    });
    picker.textContent = "";
    var head = document.createElement("p");
    head.className = "picker-head small muted";
    head.textContent = t("pick");
    picker.appendChild(head);
    groups.forEach(function (name) {
      var row = document.createElement("div");
      row.className = "pick-group" + (name === "trump" ? " trump" : "");
      var label = document.createElement("span");
      label.className = "pick-label" + (isRed(name) ? " red" : "");
      label.textContent = name === "trump" ? t("trumps") : name;
      row.appendChild(label);
      byName[name].forEach(function (tok) {
        var b = document.createElement("button");
        b.type = "button";
        b.className = "pick" + (tok === BIG || isRed(tok[0]) ? " red" : "") + (name === "trump" ? " trump" : "");
        b.dataset.card = tok;
        b.textContent = tok;
        b.setAttribute("aria-pressed", "false");
        b.setAttribute("aria-label", tok + (name === "trump" ? " " + t("trump") : ""));
        row.appendChild(b);
      });
      picker.appendChild(row);
    });
  }
  form.addEventListener("click", function (ev) {
    var b = ev.target.closest("button.pick");
    if (!b) return;
    var picker = b.closest(".picker");
    var play = document.getElementById(picker.dataset.play);
    var cards = goodCards(fieldTokens(play));
    var tok = b.dataset.card;
    if (b.getAttribute("aria-pressed") === "true") {
      cards.splice(cards.indexOf(tok), 1);
    } else {
      cards.push(tok);
    }
    setField(play, cards, true);
    b.focus();
  });

  // ---- grid interaction (mouse, touch, keyboard with a roving tabindex) ----
  var rows = Array.prototype.slice.call(grid.querySelectorAll(".grid-row")).map(function (row) {
    return Array.prototype.slice.call(row.querySelectorAll("button.cell"));
  });
  function position(cell) {
    for (var r = 0; r < rows.length; r++) {
      var c = rows[r].indexOf(cell);
      if (c >= 0) return [r, c];
    }
    return [0, 0];
  }
  function focusAt(r, c) {
    r = Math.max(0, Math.min(rows.length - 1, r));
    c = Math.max(0, Math.min(rows[r].length - 1, c));
    cells.forEach(function (x) { x.tabIndex = -1; });
    rows[r][c].tabIndex = 0;
    rows[r][c].focus();
  }
  grid.addEventListener("click", function (ev) {
    var cell = ev.target.closest("button.cell");
    if (!cell) return;
    cells.forEach(function (x) { x.tabIndex = -1; });
    cell.tabIndex = 0;
    bump(cell, ev.shiftKey ? -1 : 1);
  });
  grid.addEventListener("keydown", function (ev) {
    var cell = ev.target.closest("button.cell");
    if (!cell) return;
    var p = position(cell), r = p[0], c = p[1];
    switch (ev.key) {
      case "ArrowRight": focusAt(r, c + 1); break;
      case "ArrowLeft": focusAt(r, c - 1); break;
      case "ArrowDown": focusAt(r + 1, c); break;
      case "ArrowUp": focusAt(r - 1, c); break;
      case "Home": focusAt(r, 0); break;
      case "End": focusAt(r, rows[r].length - 1); break;
      case "Backspace": case "Delete": case "-": bump(cell, -1); break;
      case "+": bump(cell, 1); break;
      default: return;
    }
    ev.preventDefault();
  });
  if (cells.length) cells[0].tabIndex = 0;
  radios.forEach(function (r) { r.addEventListener("change", refresh); });

  // ---- fields ----
  inputs.forEach(function (inp) {
    if (inp.getAttribute("aria-invalid") === "true") inp.dataset.serverInvalid = "1";
    inp.addEventListener("focus", function () { setTarget(inp.id); refresh(); });
    // "input" covers typing, paste and IME composition once it is committed.
    inp.addEventListener("input", function () {
      inp.dataset.serverInvalid = "";
      refresh();
      if (!badTokens(fieldTokens(inp)).length) changed();
    });
  });
  [P + "-trump", P + "-level"].forEach(function (id) {
    var el = document.getElementById(id);
    if (el) el.addEventListener("change", refresh);
  });

  // The ruleset decides the grid (ranks, decks, players): reload the page, keeping the cards
  // (the server keeps every card the new deck has and says which it dropped).
  var rulesetSelect = document.getElementById(P + "-ruleset");
  if (rulesetSelect) {
    rulesetSelect.addEventListener("change", function () { form.submit(); });
  }

  // Options such as decks and players change the grid and the seats too: reload.
  var optionsInput = document.getElementById(P + "-options");
  if (optionsInput) {
    optionsInput.addEventListener("change", function () { form.submit(); });
  }

  // ---- verdict: example links, copy buttons (with a fallback), server-side field errors ----
  function copied(button) {
    button.dataset.label = button.dataset.label || button.textContent;
    button.textContent = "✓ " + t("copied");
    setTimeout(function () { button.textContent = button.dataset.label; }, 1500);
  }
  function copyFallback(text, button) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    document.body.removeChild(area);
    if (ok) { copied(button); return; }
    window.prompt(t("copyByHand"), text);
  }
  document.addEventListener("click", function (ev) {
    var link = ev.target.closest("a.example-link");
    if (link && link.dataset.target) {
      var input = document.getElementById(link.dataset.target);
      var cards = goodCards(tokenize(link.dataset.cards || ""));
      if (input && cards.length) {
        ev.preventDefault();
        setField(input, cards, false);
        if (window.htmx) window.htmx.trigger(form, "submit");
      }
      return;
    }
    var copy = ev.target.closest("[data-copy], [data-copy-from]");
    if (!copy) return;
    var text = copy.dataset.copy;
    if (copy.dataset.copyFrom) {
      var src = document.getElementById(copy.dataset.copyFrom);
      text = src ? src.value : "";
    }
    if (!text) return;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { copied(copy); },
        function () { copyFallback(text, copy); });
    } else {
      copyFallback(text, copy);
    }
  });

  document.body.addEventListener("htmx:afterSwap", function () {
    var verdict = document.getElementById("verdict");
    var bad = verdict ? verdict.dataset.errorField : "";
    var message = verdict ? (verdict.querySelector('[data-testid="verdict-error"]') || {}).textContent : "";
    inputs.forEach(function (inp) {
      var mine = inp.name === bad;
      inp.dataset.serverInvalid = mine ? "1" : "";
      var box = document.getElementById("err-" + inp.id);
      if (mine) {
        inp.setAttribute("aria-invalid", "true");
        if (box) { box.textContent = (message || "").trim(); box.hidden = false; }
      }
    });
    [P + "-level", P + "-trump", P + "-options", P + "-banker"].forEach(function (id) {
      var el = document.getElementById(id);
      if (!el) return;
      if (el.name === bad) el.setAttribute("aria-invalid", "true");
      else el.removeAttribute("aria-invalid");
    });
    refresh();
  });
  // A 400 partial still carries the message: let htmx swap it in.
  document.body.addEventListener("htmx:beforeSwap", function (ev) {
    if (ev.detail.xhr && ev.detail.xhr.status === 400) {
      ev.detail.shouldSwap = true;
      ev.detail.isError = false;
    }
  });

  gridPanel.hidden = false;
  refresh();
})();
