/* The /play/ table: keep the keyboard on the hand when htmx redraws the table after a move,
   and keep the picked cards across the language switch (the page reloads in the other
   language; the picks live only in this tab). */
(function () {
  "use strict";
  var KEY = "play-picks";
  var refocus = null;

  function table() { return document.getElementById("table"); }

  function pickedValues() {
    return Array.prototype.map.call(
      document.querySelectorAll('#hand-form input[name="c"]:checked'),
      function (box) { return box.value; });
  }

  // Where the keyboard goes after a redraw: the card it was on (or the first card that can be
  // picked), else the first action button, else the hand itself.
  function focusHand(value) {
    var root = table();
    if (!root) return;
    var cards = Array.prototype.slice.call(root.querySelectorAll('.hand input[name="c"]:not(:disabled)'));
    var same = cards.filter(function (box) { return box.value === value; });
    var target = same[0] || cards[0] || root.querySelector(".actions button, .actions .btn") ||
      root.querySelector(".hand") || root;
    if (!target.matches("input, button, a, select, textarea") && !target.hasAttribute("tabindex")) {
      target.setAttribute("tabindex", "-1");
    }
    target.focus({ preventScroll: true });
  }

  document.addEventListener("htmx:beforeSwap", function (ev) {
    var root = table();
    if (!root || ev.detail.target !== root) return;
    var active = document.activeElement;
    if (active && active !== document.body && !root.contains(active)) { refocus = null; return; }
    refocus = { value: active && active.name === "c" ? active.value : null };
  });

  document.addEventListener("htmx:afterSettle", function () {
    if (refocus === null) return;
    var wanted = refocus.value;
    refocus = null;
    var active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return;
    focusHand(wanted);
  });

  // The language switch: remember the picks of this table and this turn, put them back once
  // the page is drawn again in the other language.
  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.classList || !form.classList.contains("lang")) return;
    var root = table();
    if (!root) return;
    try {
      sessionStorage.setItem(KEY, JSON.stringify({
        path: window.location.pathname, ply: root.dataset.ply, phase: root.dataset.phase,
        cards: pickedValues()
      }));
    } catch (e) { /* storage refused: the picks are lost, nothing else */ }
  }, true);

  function restorePicks() {
    var saved = null;
    try {
      saved = JSON.parse(sessionStorage.getItem(KEY) || "null");
      sessionStorage.removeItem(KEY);
    } catch (e) { return; }
    var root = table();
    if (!saved || !root || saved.path !== window.location.pathname ||
        saved.ply !== root.dataset.ply || saved.phase !== root.dataset.phase) return;
    var boxes = Array.prototype.slice.call(root.querySelectorAll('.hand input[name="c"]:not(:disabled)'));
    saved.cards.forEach(function (value) {
      for (var i = 0; i < boxes.length; i++) {
        if (boxes[i].value === value && !boxes[i].checked) { boxes[i].checked = true; return; }
      }
    });
  }

  // The legal example a tap puts in the hand: the picks become exactly its cards, then the
  // play button is judged again (the change htmx listens for).
  document.addEventListener("click", function (ev) {
    var button = ev.target.closest ? ev.target.closest("button[data-example]") : null;
    var form = document.getElementById("hand-form");
    if (!button || !form) return;
    var wanted = button.dataset.example.split(" ");
    form.querySelectorAll('.hand input[name="c"]:not(:disabled)').forEach(function (box) {
      var at = wanted.indexOf(box.value);
      box.checked = at >= 0;
      if (at >= 0) wanted.splice(at, 1);
    });
    form.dispatchEvent(new Event("change", { bubbles: true }));
  });

  // Display settings, kept in this browser: the hand by suit or by strength (the cards of a
  // rank side by side), and four-colour suits (♣ green, ♦ blue; the symbols stay).
  var DISPLAY = "play-display";

  var current = null;  // the settings of this page (what localStorage holds, if it may)

  function display() {
    if (current === null) {
      try { current = JSON.parse(localStorage.getItem(DISPLAY) || "{}") || {}; } catch (e) { current = {}; }
    }
    return current;
  }

  function applyDisplay() {
    var wanted = display();
    var sort = wanted.sort === "strength" ? "strength" : "suit";
    var colours = wanted.colours === "4" ? "4" : "2";
    document.documentElement.classList.toggle("four-colour", colours === "4");
    var hand = document.querySelector("#table .hand");
    if (hand) {
      hand.classList.toggle("by-strength", sort === "strength");
      hand.querySelectorAll("label.pick").forEach(function (label) {
        label.style.order = sort === "strength" ? label.dataset.order : "";
      });
    }
    document.querySelectorAll("[data-setting]").forEach(function (button) {
      var now = button.dataset.setting === "sort" ? sort : colours;
      button.setAttribute("aria-pressed", String(button.dataset.value === now));
    });
  }

  document.addEventListener("click", function (ev) {
    var button = ev.target.closest ? ev.target.closest("button[data-setting]") : null;
    if (!button) return;
    var wanted = display();
    wanted[button.dataset.setting] = button.dataset.value;
    try { localStorage.setItem(DISPLAY, JSON.stringify(wanted)); } catch (e) { /* kept for this page only */ }
    applyDisplay();
  });
  document.addEventListener("htmx:afterSettle", applyDisplay);

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", restorePicks);
    document.addEventListener("DOMContentLoaded", applyDisplay);
  } else {
    restorePicks();
    applyDisplay();
  }
})();
