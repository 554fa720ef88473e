/* The per-turn countdown of a room (seed 001 §11): purely shown. It counts the seconds of the
   turn drawn on the page down to zero, then says the time is up; it never submits, picks or
   skips anything (a turn nobody takes waits for ever). A redraw of the table starts it again
   for the new turn. */
(function () {
  "use strict";
  var started = {};  /* turn → when its countdown began (a redraw within a turn keeps it) */

  function tick() {
    var now = Date.now();
    document.querySelectorAll(".countdown[data-seconds]").forEach(function (el) {
      var total = parseInt(el.dataset.seconds, 10);
      if (!(total > 0)) return;
      if (!el.dataset.start) {
        var turn = el.dataset.turn || "";
        if (!started[turn]) started[turn] = now;
        el.dataset.start = String(started[turn]);
      }
      var left = Math.max(0, total - Math.floor((now - Number(el.dataset.start)) / 1000));
      var text = el.querySelector(".countdown-text");
      var bar = el.querySelector(".countdown-bar > span");
      if (bar) bar.style.width = (100 * left / total) + "%";
      if (left === 0) {
        el.classList.add("done");
        if (text) text.textContent = el.dataset.done;
        el.dataset.seconds = "0";  /* stop here: nothing more ever happens */
      } else if (text) {
        text.textContent = el.dataset.left.replace("{n}", String(left));
      }
    });
  }

  tick();
  document.addEventListener("htmx:afterSettle", tick);
  window.setInterval(tick, 1000);
})();
