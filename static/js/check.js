/* Checker page: the card grid, text fields kept in sync, example links, copy buttons.
   Everything here is an enhancement: without JavaScript the form still submits (GET)
   and the server renders the verdict. */
(function () {
  "use strict";

  var form = document.getElementById("check-form");
  if (!form) return;
  var decks = parseInt(form.dataset.decks || "2", 10);
  var gridPanel = document.getElementById("grid-panel");
  var grid = document.getElementById("cardgrid");
  var targetSelect = document.getElementById("grid-target");
  var cells = Array.prototype.slice.call(grid.querySelectorAll("button.cell"));
  var inputs = Array.prototype.slice.call(form.querySelectorAll("input.cards-input"));

  // ---- notation (same spellings as the contract) ----
  var SUITS = { "♠": "S", "♤": "S", "S": "S", "♥": "H", "♡": "H", "H": "H",
                "♣": "C", "♧": "C", "C": "C", "♦": "D", "♢": "D", "D": "D" };
  var SYMBOL = { S: "♠", H: "♥", C: "♣", D: "♦" };
  var RANKS = { "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10,
                "T": 10, "J": 11, "Q": 12, "K": 13, "A": 14 };
  var LABEL = { 11: "J", 12: "Q", 13: "K", 14: "A" };
  var TOKEN = /^(大王|小王|BJ|LJ)|^([♠♤♥♡♣♧♦♢SHCD])(10|[2-9TJQKA])/i;

  function parse(text) {
    var out = [];
    var chunks = text.replace(/\ufe0f/g, "").split(/[\s,，、;；+]+/);
    for (var i = 0; i < chunks.length; i++) {
      var chunk = chunks[i];
      while (chunk.length) {
        var m = TOKEN.exec(chunk);
        if (!m) return { error: chunk };
        if (m[1]) {
          var j = m[1].toUpperCase();
          out.push(j === "大王" || j === "BJ" ? "大王" : "小王");
        } else {
          var r = RANKS[m[3].toUpperCase()];
          out.push(SYMBOL[SUITS[m[2].toUpperCase()]] + (LABEL[r] || String(r)));
        }
        chunk = chunk.slice(m[0].length);
      }
    }
    return { cards: out };
  }

  // Display order: jokers, then ♠ ♥ ♣ ♦, high to low.
  var SUIT_ORDER = { "♠": 1, "♥": 2, "♣": 3, "♦": 4 };
  function sortKey(tok) {
    if (tok === "大王") return [0, 0];
    if (tok === "小王") return [0, 1];
    var r = RANKS[tok.slice(1)];
    return [SUIT_ORDER[tok[0]], 20 - r];
  }
  function sortCards(list) {
    return list.slice().sort(function (a, b) {
      var ka = sortKey(a), kb = sortKey(b);
      return ka[0] - kb[0] || ka[1] - kb[1];
    });
  }
  function countOf(list) {
    var c = {};
    list.forEach(function (t) { c[t] = (c[t] || 0) + 1; });
    return c;
  }

  // ---- state ----
  function fieldCards(input) {
    var res = parse(input.value);
    return res.error !== undefined ? null : res.cards;
  }
  function seatUsage(exceptSeat) {
    // Physical copies per card: for each seat, the larger of its hand and its play.
    var bySeat = {};
    inputs.forEach(function (inp) {
      var seat = inp.dataset.seat;
      if (seat === exceptSeat) return;
      var cards = fieldCards(inp) || [];
      var c = countOf(cards);
      bySeat[seat] = bySeat[seat] || {};
      Object.keys(c).forEach(function (k) {
        bySeat[seat][k] = Math.max(bySeat[seat][k] || 0, c[k]);
      });
    });
    var used = {};
    Object.keys(bySeat).forEach(function (s) {
      Object.keys(bySeat[s]).forEach(function (k) { used[k] = (used[k] || 0) + bySeat[s][k]; });
    });
    return used;
  }
  function activeInput() {
    return document.getElementById(targetSelect.value) || inputs[0];
  }

  function refresh() {
    var target = activeInput();
    var mine = countOf(fieldCards(target) || []);
    var others = seatUsage(target.dataset.seat);
    // Within the same seat, the other field (hand vs play) does not use extra copies.
    cells.forEach(function (cell) {
      var tok = cell.dataset.card;
      var n = mine[tok] || 0;
      var room = decks - (others[tok] || 0);
      cell.dataset.count = String(n);
      cell.querySelector(".n").textContent = n ? "×" + n : (room <= 0 ? "0" : "");
      cell.disabled = room <= 0 && n === 0;
      cell.setAttribute("aria-label", tok + "：" + n + " / " + Math.max(room, 0));
    });
    inputs.forEach(function (inp) {
      var cards = fieldCards(inp);
      var badge = form.querySelector('[data-count-for="' + inp.id + '"]');
      if (cards === null) {
        inp.setAttribute("aria-invalid", "true");
        if (badge) badge.textContent = "⚠";
      } else {
        if (inp.dataset.serverInvalid !== "1") inp.removeAttribute("aria-invalid");
        if (badge) badge.textContent = cards.length ? "(" + cards.length + ")" : "";
      }
      inp.classList.toggle("active-target", inp === target);
    });
  }

  function setField(input, cards) {
    input.value = sortCards(cards).join(" ");
    input.dataset.serverInvalid = "";
    refresh();
    form.dispatchEvent(new Event("cards-changed"));
  }

  function bump(cell, delta) {
    if (cell.disabled) return;
    var target = activeInput();
    var cards = fieldCards(target);
    if (cards === null) cards = [];
    var tok = cell.dataset.card;
    var c = countOf(cards);
    var n = c[tok] || 0;
    var room = decks - (seatUsage(target.dataset.seat)[tok] || 0);
    var next = n + delta;
    if (delta > 0 && next > room) next = 0;      // full: a further click clears it
    if (next < 0) next = 0;
    cards = cards.filter(function (t) { return t !== tok; });
    for (var i = 0; i < next; i++) cards.push(tok);
    setField(target, cards);
  }

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

  // ---- fields ----
  inputs.forEach(function (inp) {
    if (inp.getAttribute("aria-invalid") === "true") inp.dataset.serverInvalid = "1";
    inp.addEventListener("focus", function () {
      targetSelect.value = inp.id;
      refresh();
    });
    inp.addEventListener("input", function () {
      inp.dataset.serverInvalid = "";
      refresh();
      if (fieldCards(inp) !== null) form.dispatchEvent(new Event("cards-changed"));
    });
  });
  targetSelect.addEventListener("change", refresh);

  // The ruleset decides the grid (ranks, decks, players): reload the whole page.
  var rulesetSelect = document.getElementById("f-ruleset");
  if (rulesetSelect) {
    rulesetSelect.addEventListener("change", function () {
      window.location.href = form.action + "?ruleset=" + encodeURIComponent(rulesetSelect.value);
    });
  }

  // Options such as decks and players change the grid too: reload with the form's values.
  var optionsInput = document.getElementById("f-options");
  if (optionsInput) {
    optionsInput.addEventListener("change", function () {
      var query = new URLSearchParams(new FormData(form)).toString();
      window.location.href = form.action + "?" + query;
    });
  }

  // ---- verdict: example links, copy buttons, server-side field errors ----
  document.addEventListener("click", function (ev) {
    var link = ev.target.closest("a.example-link");
    if (link && link.dataset.target) {
      var input = document.getElementById(link.dataset.target);
      var res = parse(link.dataset.cards || "");
      if (input && res.cards) {
        ev.preventDefault();
        setField(input, res.cards);
        if (window.htmx) window.htmx.trigger(form, "submit");
      }
      return;
    }
    var copy = ev.target.closest("[data-copy], [data-copy-from]");
    if (copy) {
      var text = copy.dataset.copy;
      if (copy.dataset.copyFrom) {
        var src = document.getElementById(copy.dataset.copyFrom);
        text = src ? src.value : "";
      }
      if (navigator.clipboard && text) {
        navigator.clipboard.writeText(text).then(function () {
          copy.dataset.label = copy.dataset.label || copy.textContent;
          copy.textContent = "✓";
          setTimeout(function () { copy.textContent = copy.dataset.label; }, 1200);
        }, function () {});
      }
    }
  });

  document.body.addEventListener("htmx:afterSwap", function () {
    var verdict = document.getElementById("verdict");
    var bad = verdict ? verdict.dataset.errorField : "";
    inputs.forEach(function (inp) {
      inp.dataset.serverInvalid = inp.name === bad ? "1" : "";
      if (inp.name === bad) inp.setAttribute("aria-invalid", "true");
    });
    ["f-level", "f-trump", "f-options"].forEach(function (id) {
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
